/** SMS one-time codes: generation, limits and keyed hashing for storage. */
import { createHmac, randomInt } from 'node:crypto';
import { OTP_LENGTH, SMS_CODE_SECONDS } from '@gatehouse/protocol';
import { safeEqual } from '../crypto/random.js';

/** Wrong guesses allowed per code; the code is void after that. */
export const OTP_MAX_ATTEMPTS = 5;
/** How long a code is valid, in seconds (docs/widget.md §9: 2 minutes). */
export const OTP_TTL_SECONDS = SMS_CODE_SECONDS;

const CODE_SPACE = 10 ** OTP_LENGTH;

/**
 * A new 6-digit code, uniform over 000000–999999 (leading zeros kept).
 *
 * @example
 * const code = generateOtpCode(); // '042917'
 */
export function generateOtpCode(): string {
  return randomInt(CODE_SPACE).toString().padStart(OTP_LENGTH, '0');
}

/**
 * The stored form of a code: HMAC-SHA-256 under a server key, hex. A plain hash would not do: there
 * are only a million codes, so anyone reading the table could hash them all in a moment and find
 * every live code. Without the key, the stored value says nothing about the code.
 *
 * @example
 * await db.insertInto('otp_codes').values({ code_hash: hashOtpCode(code, serverKey), … });
 */
export function hashOtpCode(code: string, key: Buffer): string {
  // The label keeps these MACs apart from anything else computed under the same key.
  return createHmac('sha256', key)
    .update(`gatehouse:otp-code:${code.trim()}`, 'utf8')
    .digest('hex');
}

/**
 * Checks a typed code against its stored hash in constant time.
 *
 * @example
 * if (!otpCodeMatches(body.code, row.code_hash, serverKey)) await countFailedAttempt(row);
 */
export function otpCodeMatches(code: string, storedHash: string, key: Buffer): boolean {
  return safeEqual(hashOtpCode(code, key), storedHash);
}
