// Phone-number normalization to E.164 with libphonenumber-js.
import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber } from './phone.js';

describe('normalizePhoneNumber', () => {
  it('normalizes international and US national formats to E.164', async () => {
    const expected = { e164: '+14155552671', national: '(415) 555-2671' };
    for (const input of [
      '+1 415 555 2671',
      '+14155552671',
      '(415) 555-2671',
      '415.555.2671',
      ' 4155552671 ',
    ]) {
      expect(await normalizePhoneNumber(input)).toEqual(expected);
    }
  });

  it('reads national numbers in the given region', async () => {
    expect(await normalizePhoneNumber('030 12345678', 'DE')).toEqual({
      e164: '+493012345678',
      national: '030 12345678',
    });
    expect((await normalizePhoneNumber('07911 123456', 'GB'))?.e164).toBe('+447911123456');
    // A number with its own country code ignores the region.
    expect((await normalizePhoneNumber('+33 6 12 34 56 78', 'US'))?.e164).toBe('+33612345678');
  });

  it('refuses what is not a valid number', async () => {
    for (const input of [
      '',
      '12',
      'not a number',
      '+1 415 555',
      '+999 1234567',
      '555-0000-0000-0000',
    ]) {
      expect(await normalizePhoneNumber(input)).toBeNull();
    }
  });
});
