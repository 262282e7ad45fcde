/** TOTP (RFC 6238): secrets, otpauth URIs, QR codes and replay-safe code verification. */
import { HOTP, Secret, TOTP } from 'otpauth';
import { safeEqual } from './random.js';

/** Seconds per TOTP step. */
export const TOTP_PERIOD_SECONDS = 30;
/** Digits of a TOTP code. */
export const TOTP_DIGITS = 6;
/** Steps accepted on each side of the current one, for clock drift and typing time. */
export const TOTP_WINDOW = 1;

// SHA-1 is what authenticator apps implement universally; RFC 6238's default.
const ALGORITHM = 'SHA1';

/**
 * A new TOTP secret: 20 random bytes (RFC 4226's recommended length) in base32.
 *
 * @example
 * const secret = generateTotpSecret(); // 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
 */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The `otpauth://totp/…` URI that authenticator apps read from the QR code.
 *
 * @example
 * totpUri({ secret, issuer: 'Acme', account: 'ada@acme.com' });
 * // 'otpauth://totp/Acme:ada%40acme.com?issuer=Acme&secret=…&algorithm=SHA1&digits=6&period=30'
 */
export function totpUri(options: { secret: string; issuer: string; account: string }): string {
  return new TOTP({
    issuer: options.issuer,
    label: options.account,
    secret: Secret.fromBase32(options.secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}

/**
 * Renders a URI as a QR code in a `data:image/png;base64,…` URL, ready to be an image source.
 * The QR code library loads on the first code drawn, not at start.
 *
 * @example
 * const qr_code = await totpQrCodeDataUrl(totpUri({ secret, issuer, account }));
 */
export async function totpQrCodeDataUrl(uri: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(uri, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The TOTP step (counter) at a time.
 *
 * @example
 * totpStep(Date.now()); // 58_000_000-ish
 */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** Inputs of {@link verifyTotp}. */
export interface VerifyTotpOptions {
  /** The base32 secret. */
  secret: string;
  /** The code the member typed. */
  code: string;
  /** The current time, in milliseconds since the epoch. */
  now: number;
  /** The step of the last code accepted for this registration, or null if none was. */
  lastUsedStep: number | null;
}

/**
 * Checks a TOTP code: 6 digits, 30-second steps, one step of tolerance either way. A code whose
 * step is not after `lastUsedStep` is refused, so each code works once; store the returned `step`
 * as the new `lastUsedStep` on success (in the same update that checks the old one, so two
 * concurrent uses cannot both pass).
 *
 * @example
 * const { valid, step } = verifyTotp({ secret, code, now: Date.now(), lastUsedStep: row.last_step });
 */
export function verifyTotp(options: VerifyTotpOptions): { valid: boolean; step: number | null } {
  const code = options.code.trim();
  if (!/^\d+$/.test(code) || code.length !== TOTP_DIGITS) return { valid: false, step: null };
  const secret = Secret.fromBase32(options.secret);
  const current = totpStep(options.now);
  let matched: number | null = null;
  // Every candidate step is computed and compared, so the time taken does not tell which matched.
  for (let delta = -TOTP_WINDOW; delta <= TOTP_WINDOW; delta++) {
    const step = current + delta;
    const expected = HOTP.generate({
      secret,
      algorithm: ALGORITHM,
      digits: TOTP_DIGITS,
      counter: step,
    });
    const unused = options.lastUsedStep === null || step > options.lastUsedStep;
    if (safeEqual(expected, code) && unused) matched = step;
  }
  return matched === null ? { valid: false, step: null } : { valid: true, step: matched };
}
