/** MFA recovery codes: generation in `xxxx-xxxx-xxxx` form, hashing and matching. */
import { createHash, randomBytes } from 'node:crypto';
import { safeEqual } from './random.js';

/** How many recovery codes a member gets (docs/protocol.md §7.7). */
export const RECOVERY_CODE_COUNT = 10;

// 32 symbols: lower-case letters and digits without 0, 1, l and o, which read alike. A power of two,
// so each symbol takes exactly 5 random bits with no modulo bias.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;
const CODE_LENGTH = GROUPS * GROUP_LENGTH;

/**
 * Makes `n` fresh recovery codes like `k7dm-x3qa-pz9e`, each carrying 60 random bits.
 *
 * @example
 * const codes = generateRecoveryCodes(); // 10 codes, shown once to the member
 */
export function generateRecoveryCodes(n: number = RECOVERY_CODE_COUNT): string[] {
  if (!Number.isInteger(n) || n < 0) throw new TypeError('n must be a non-negative integer');
  return Array.from({ length: n }, () => {
    const bytes = randomBytes(CODE_LENGTH);
    let code = '';
    for (let i = 0; i < CODE_LENGTH; i++) {
      if (i > 0 && i % GROUP_LENGTH === 0) code += '-';
      code += ALPHABET[bytes[i]! & 31];
    }
    return code;
  });
}

/**
 * The stored form of a recovery code: SHA-256 (hex) of the code trimmed, lower-cased and without
 * dashes or spaces, so `K7DM X3QA PZ9E` and `k7dmx3qapz9e` are the same code.
 *
 * A fast unsalted hash is enough here, unlike for passwords: a code is 60 bits chosen uniformly at
 * random, so there is no dictionary to try and inverting one hash by brute force costs on the
 * order of 2^59 SHA-256 evaluations, years of GPU time for a single single-use code.
 *
 * @example
 * await db.insertInto('recovery_codes').values(codes.map((c) => ({ code_hash: hashRecoveryCode(c) })));
 */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code), 'utf8').digest('hex');
}

/**
 * Finds a code among stored hashes: the index of the matching hash, or −1. Each comparison is
 * constant-time and every hash is compared, so timing reveals neither match nor position.
 *
 * @example
 * const index = matchRecoveryCode(input, rows.map((r) => r.code_hash));
 * if (index >= 0) await markUsed(rows[index]);
 */
export function matchRecoveryCode(code: string, hashes: readonly string[]): number {
  const hash = hashRecoveryCode(code);
  let found = -1;
  hashes.forEach((stored, index) => {
    if (safeEqual(hash, stored) && found < 0) found = index;
  });
  return found;
}

function normalizeRecoveryCode(code: string): string {
  return code
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '');
}
