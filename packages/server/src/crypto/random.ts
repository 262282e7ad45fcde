/** Random identifiers and tokens, token hashing and constant-time comparison. */
import { createHash, hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Environment, IdKind } from '@gatehouse/protocol';

/**
 * A prefixed id `{kind}-{env}-{uuid}` (docs/protocol.md §4).
 *
 * @example
 * newId('member', 'test'); // 'member-test-1b4e…'
 */
export function newId(kind: IdKind, env: Environment): string {
  return `${kind}-${env}-${randomUUID()}`;
}

/**
 * A secret token: 32 random bytes in base64url (43 ASCII characters, safe for `btoa` and URLs).
 *
 * @example
 * const token = newToken();
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The SHA-256 of a token, hex-encoded: the only form in which tokens are stored. The tokens carry
 * 256 bits of entropy, so a fast unsalted hash is enough to make a leaked table useless.
 *
 * @example
 * await db.selectFrom('sessions').where('token_hash', '=', hashToken(token));
 */
export function hashToken(token: string): string {
  // The one-shot form skips the streaming Hash object: this runs on every call with a session.
  return hash('sha256', token, 'hex');
}

/**
 * Compares two strings in time independent of where they differ.
 *
 * @example
 * safeEqual(hashToken(given), row.secret_hash);
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Still spend a comparison so the length mismatch is not observably faster.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/**
 * Checks a PKCE verifier against its challenge: unpadded base64url(SHA-256(verifier)) (§10).
 *
 * @example
 * pkceMatches(verifier, row.pkce_challenge);
 */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return safeEqual(computed, challenge);
}
