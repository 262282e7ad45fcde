import { describe, expect, it } from 'vitest';
import { isValidEmail } from './validation.js';

describe('isValidEmail', () => {
  it('accepts local@domain.tld with a top-level domain of two letters or more', () => {
    expect(isValidEmail('ada@acme.io')).toBe(true);
    expect(isValidEmail('ada.lovelace+x@mail.acme.com')).toBe(true);
  });

  it('rejects everything else', () => {
    for (const bad of [
      '',
      'ada',
      'ada@acme',
      'ada@acme.c',
      '@acme.com',
      'ada@@acme.com',
      'a da@acme.com',
      'ada@acme.c0m',
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });
});
