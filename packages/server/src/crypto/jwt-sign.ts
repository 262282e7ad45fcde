/** RS256 JWT signing with node:crypto on the calling thread. */
import { sign, type KeyObject } from 'node:crypto';

/**
 * Signs a JWT (JWS compact serialization) with RS256.
 *
 * jose signs through WebCrypto, whose RSA work runs on libuv's thread pool: the same four
 * threads argon2 uses, so under password load each signature first waits for password hashes
 * to finish. A synchronous `sign` with a parsed `KeyObject` costs less CPU and never queues.
 *
 * @example
 * const jwt = signRs256(key, { kid: key.kid, typ: 'JWT' }, { sub: member_id, exp });
 */
export function signRs256(
  privateKey: KeyObject,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
): string {
  const input = `${base64url({ alg: 'RS256', ...header })}.${base64url(payload)}`;
  const signature = sign('sha256', Buffer.from(input, 'utf8'), privateKey);
  return `${input}.${signature.toString('base64url')}`;
}

function base64url(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}
