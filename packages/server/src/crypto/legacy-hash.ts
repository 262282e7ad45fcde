/**
 * The legacy hash formats a migration stores (MD5, SHA-1 and SHA-512 with salts around the
 * password, PBKDF2 with a binary salt, phpass), written and checked here. A migrated hash is kept
 * exactly as the old system computed it, with its parameters in the stored string, until the
 * member's next sign-in replaces it with argon2id.
 */
import { createHash, pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { pbkdf2Problem, phpassProblem } from './hash-bounds.js';

const pbkdf2Async = promisify(pbkdf2);

/** The plain digests a migration accepts, with their output size in bytes. */
export const SALTED_DIGESTS = { md5: 16, sha1: 20, sha512: 64 } as const;
export type SaltedDigest = keyof typeof SALTED_DIGESTS;

/** The PBKDF2 PRFs a migration accepts. */
export type Pbkdf2Digest = 'sha256' | 'sha512';

const b64 = (bytes: Buffer) => bytes.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');
const B64 = '[A-Za-z0-9_-]*';

/**
 * The stored form of `digest(prepend + password + append)`:
 * `$md5$p=<prepend>,a=<append>$<digest>`, each part unpadded base64url.
 *
 * @example
 * saltedDigestHash('md5', { prepend: 'x', append: '' }, digest); // '$md5$p=eA,a=$…'
 */
export function saltedDigestHash(
  algorithm: SaltedDigest,
  salts: { prepend: string; append: string },
  digest: Buffer,
): string {
  const prepend = b64(Buffer.from(salts.prepend, 'utf8'));
  const append = b64(Buffer.from(salts.append, 'utf8'));
  return `$${algorithm}$p=${prepend},a=${append}$${b64(digest)}`;
}

/**
 * The stored form of a PBKDF2 key: `$pbkdf2-sha256$i=<iterations>$<salt>$<key>`, salt and key in
 * unpadded base64url.
 *
 * @example
 * pbkdf2Hash('sha256', 600000, salt, key); // '$pbkdf2-sha256$i=600000$…$…'
 */
export function pbkdf2Hash(
  algorithm: Pbkdf2Digest,
  iterations: number,
  salt: Buffer,
  key: Buffer,
): string {
  return `$pbkdf2-${algorithm}$i=${iterations}$${b64(salt)}$${b64(key)}`;
}

const SALTED = new RegExp(`^\\$(md5|sha1|sha512)\\$p=(${B64}),a=(${B64})\\$(${B64})$`);
const PBKDF2 = new RegExp(`^\\$pbkdf2-(sha256|sha512)\\$i=(\\d{1,10})\\$(${B64})\\$(${B64})$`);
const PHPASS = /^\$[PH]\$[./0-9A-Za-z]{31}$/;

/**
 * Whether a hash is in phpass's portable format (`$P$` of WordPress, `$H$` of phpBB), whatever
 * its rounds.
 *
 * @example
 * isPhpassHash('$P$BPyVzW1wyaDXj0YAwzqm/kxpcz2yPs.'); // true
 */
export function isPhpassHash(hash: string): boolean {
  return PHPASS.test(hash);
}

/** The rounds of a phpass hash, as their base-2 logarithm (the fourth character). */
export function phpassLog2Rounds(hash: string): number {
  return ITOA64.indexOf(hash.charAt(3));
}

/**
 * Checks a password against a hash in one of this file's formats: true or false, or null when
 * the hash is in none of them. Out-of-bounds parameters are simply not valid; comparisons are
 * constant-time.
 *
 * @example
 * const valid = await verifyLegacyHash(stored, password); // null: not a legacy format
 */
export async function verifyLegacyHash(stored: string, password: string): Promise<boolean | null> {
  const salted = SALTED.exec(stored);
  if (salted) {
    const [, algorithm, prepend, append, digest] = salted as unknown as [
      string,
      SaltedDigest,
      string,
      string,
      string,
    ];
    const expected = unb64(digest);
    if (expected.length !== SALTED_DIGESTS[algorithm]) return false;
    const actual = createHash(algorithm)
      .update(unb64(prepend))
      .update(password, 'utf8')
      .update(unb64(append))
      .digest();
    return timingSafeEqual(actual, expected);
  }
  const derived = PBKDF2.exec(stored);
  if (derived) {
    const [, algorithm, iterationsText, salt, key] = derived as unknown as [
      string,
      Pbkdf2Digest,
      string,
      string,
      string,
    ];
    const iterations = Number(iterationsText);
    const expected = unb64(key);
    if (pbkdf2Problem({ iterations, keyBytes: expected.length })) return false;
    const actual = await pbkdf2Async(password, unb64(salt), iterations, expected.length, algorithm);
    return timingSafeEqual(actual, expected);
  }
  if (isPhpassHash(stored)) return verifyPhpass(stored, password);
  return null;
}

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Rounds between two yields to the event loop: MD5 runs on the main thread. */
const PHPASS_ROUNDS_PER_TURN = 4096;

/** phpass's portable hash: MD5 of salt and password, then of digest and password, 2^n times. */
async function verifyPhpass(stored: string, password: string): Promise<boolean> {
  const log2Rounds = phpassLog2Rounds(stored);
  if (phpassProblem(log2Rounds)) return false;
  const salt = stored.slice(4, 12);
  const secret = Buffer.from(password, 'utf8');
  let digest = createHash('md5').update(salt, 'binary').update(secret).digest();
  for (let round = 1; round <= 2 ** log2Rounds; round++) {
    digest = createHash('md5').update(digest).update(secret).digest();
    // A long chain yields now and then, so other requests are served meanwhile.
    if (round % PHPASS_ROUNDS_PER_TURN === 0) await new Promise((done) => setImmediate(done));
  }
  return timingSafeEqual(
    Buffer.from(stored.slice(0, 12) + phpassBase64(digest)),
    Buffer.from(stored),
  );
}

/** phpass's own base64: little-endian groups of three bytes, in the order of `ITOA64`. */
function phpassBase64(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const value = (bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ITOA64.charAt((value >> (6 * c)) & 0x3f);
  }
  return out;
}
