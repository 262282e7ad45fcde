// SMS one-time codes: uniform 6-digit generation and keyed hashing.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateOtpCode,
  hashOtpCode,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
  otpCodeMatches,
} from './otp-code.js';

describe('generateOtpCode', () => {
  it('makes 6-digit codes spread over the whole range, leading zeros included', () => {
    const codes = Array.from({ length: 5000 }, generateOtpCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // Each leading digit should appear about 500 times; a biased generator would stray far.
    const firsts = new Map<string, number>();
    for (const code of codes) firsts.set(code[0]!, (firsts.get(code[0]!) ?? 0) + 1);
    expect(firsts.size).toBe(10);
    for (const count of firsts.values()) {
      expect(count).toBeGreaterThan(380);
      expect(count).toBeLessThan(620);
    }
    expect(new Set(codes).size).toBeGreaterThan(4950);
  });

  it('has the limits of the spec', () => {
    expect(OTP_TTL_SECONDS).toBe(120);
    expect(OTP_MAX_ATTEMPTS).toBe(5);
  });
});

describe('hashOtpCode and otpCodeMatches', () => {
  it('is an HMAC under the key: the same code under another key hashes differently', () => {
    const key = randomBytes(32);
    const hash = hashOtpCode('042917', key);
    expect(hash).toBe(createHmac('sha256', key).update('gatehouse:otp-code:042917').digest('hex'));
    expect(hashOtpCode('042917', randomBytes(32))).not.toBe(hash);
    expect(otpCodeMatches('042917', hash, key)).toBe(true);
    expect(otpCodeMatches(' 042917 ', hash, key)).toBe(true);
    expect(otpCodeMatches('042918', hash, key)).toBe(false);
    expect(otpCodeMatches('42917', hash, key)).toBe(false);
    expect(otpCodeMatches('042917', hash, randomBytes(32))).toBe(false);
  });
});
