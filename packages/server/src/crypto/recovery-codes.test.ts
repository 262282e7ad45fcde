// Recovery codes: format, randomness, normalization, hashing and matching.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchRecoveryCode,
  RECOVERY_CODE_COUNT,
} from './recovery-codes.js';

describe('generateRecoveryCodes', () => {
  it('makes ten distinct xxxx-xxxx-xxxx codes without look-alike characters', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(RECOVERY_CODE_COUNT).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(code).not.toMatch(/[01lo]/);
    }
    expect(new Set(codes).size).toBe(codes.length);
    expect(generateRecoveryCodes(3)).toHaveLength(3);
    expect(generateRecoveryCodes(0)).toEqual([]);
    expect(() => generateRecoveryCodes(-1)).toThrow(TypeError);
  });

  it('uses the whole 32-symbol alphabet evenly', () => {
    const counts = new Map<string, number>();
    for (const code of generateRecoveryCodes(2000)) {
      for (const char of code.replaceAll('-', '')) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    // 24 000 symbols over 32 values: 750 each on average; a biased generator would stray far.
    expect(counts.size).toBe(32);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(600);
      expect(count).toBeLessThan(900);
    }
  });
});

describe('hashRecoveryCode and matchRecoveryCode', () => {
  it('hashes the normalized code with SHA-256', () => {
    const expected = createHash('sha256').update('k7dmx3qapz9e').digest('hex');
    for (const variant of [
      'k7dm-x3qa-pz9e',
      ' K7DM-X3QA-PZ9E ',
      'k7dmx3qapz9e',
      'k7dm x3qa pz9e',
    ]) {
      expect(hashRecoveryCode(variant)).toBe(expected);
    }
    expect(hashRecoveryCode('k7dm-x3qa-pz9f')).not.toBe(expected);
  });

  it('finds the index of the matching hash, or -1', () => {
    const codes = generateRecoveryCodes();
    const hashes = codes.map(hashRecoveryCode);
    expect(matchRecoveryCode(codes[0]!, hashes)).toBe(0);
    expect(matchRecoveryCode(codes[7]!.toUpperCase(), hashes)).toBe(7);
    expect(matchRecoveryCode(codes[9]!.replaceAll('-', ''), hashes)).toBe(9);
    expect(matchRecoveryCode('aaaa-bbbb-cccc', hashes)).toBe(-1);
    expect(matchRecoveryCode('', hashes)).toBe(-1);
    expect(matchRecoveryCode(codes[0]!, [])).toBe(-1);
    // A used code removed from the list no longer matches.
    expect(matchRecoveryCode(codes[0]!, hashes.slice(1))).toBe(-1);
  });
});
