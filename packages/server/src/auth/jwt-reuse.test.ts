import { describe, expect, it } from 'vitest';
import { JWT_REUSE_MS, rememberedJwtCount, rememberJwt, reusableJwt } from './jwt-reuse.js';

describe('session JWT reuse', () => {
  it('hands a JWT out again for the same fingerprint within 30 s, and not after', () => {
    const owner = {};
    rememberJwt(owner, 'session-1', 'f', 'jwt-1', 1_000);
    expect(reusableJwt(owner, 'session-1', 'f', 1_000 + JWT_REUSE_MS - 1)).toBe('jwt-1');
    expect(reusableJwt(owner, 'session-1', 'other', 1_000)).toBeNull();
    expect(reusableJwt(owner, 'session-1', 'f', 1_000 + JWT_REUSE_MS)).toBeNull();
    expect(reusableJwt(owner, 'session-2', 'f', 1_000)).toBeNull();
  });

  it('keeps only the JWTs that could still be reused: older ones leave as new ones come', () => {
    const owner = {};
    for (let i = 0; i < 500; i++) rememberJwt(owner, `old-${i}`, 'f', `jwt-${i}`, i);
    expect(rememberedJwtCount(owner)).toBe(500);
    // Past the window of the first 250 only.
    const later = 249 + JWT_REUSE_MS;
    rememberJwt(owner, 'new', 'f', 'jwt-new', later);
    expect(rememberedJwtCount(owner)).toBe(251);
    expect(reusableJwt(owner, 'old-249', 'f', later)).toBeNull();
    expect(reusableJwt(owner, 'old-250', 'f', later)).toBe('jwt-250');
    expect(reusableJwt(owner, 'new', 'f', later)).toBe('jwt-new');
    // Once all are old, the next one is alone.
    rememberJwt(owner, 'last', 'f', 'jwt-last', later + JWT_REUSE_MS);
    expect(rememberedJwtCount(owner)).toBe(1);
  });

  it('re-signing a session moves it to the back, so it is not dropped as old', () => {
    const owner = {};
    rememberJwt(owner, 'a', 'f', 'jwt-a1', 0);
    rememberJwt(owner, 'b', 'f', 'jwt-b', 10);
    rememberJwt(owner, 'a', 'f', 'jwt-a2', 20);
    rememberJwt(owner, 'c', 'f', 'jwt-c', 15 + JWT_REUSE_MS);
    expect(reusableJwt(owner, 'b', 'f', 15 + JWT_REUSE_MS)).toBeNull();
    expect(reusableJwt(owner, 'a', 'f', 15 + JWT_REUSE_MS)).toBe('jwt-a2');
    expect(rememberedJwtCount(owner)).toBe(2);
  });

  it('holds at most 10,000, the oldest leaving first', () => {
    const owner = {};
    for (let i = 0; i <= 10_000; i++) rememberJwt(owner, `s-${i}`, 'f', `jwt-${i}`, 0);
    expect(rememberedJwtCount(owner)).toBe(10_000);
    expect(reusableJwt(owner, 's-0', 'f', 0)).toBeNull();
    expect(reusableJwt(owner, 's-1', 'f', 0)).toBe('jwt-1');
    expect(reusableJwt(owner, 's-10000', 'f', 0)).toBe('jwt-10000');
  });
});
