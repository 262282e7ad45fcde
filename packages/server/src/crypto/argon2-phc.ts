/**
 * Reads the parameters of an encoded (PHC) argon2 hash, `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`,
 * without loading the native argon2 binding: the main thread decides whether a stored hash is
 * within bounds and whether it needs rehashing, and only the hashing threads (`argon2-pool.ts`)
 * load the binding, on the first sign-in rather than at start.
 */

/** The parameters of an encoded argon2 hash. */
export interface Argon2Parameters {
  variant: 'argon2id' | 'argon2i' | 'argon2d';
  /** 19 (0x13, current) or 16 (0x10, hashes written before it; also when `v=` is absent). */
  version: number;
  /** Memory in KiB (`m=`). */
  memoryCost: number;
  /** Passes (`t=`). */
  timeCost: number;
  /** Lanes (`p=`). */
  parallelism: number;
  /** Bytes of the decoded salt. */
  saltLen: number;
  /** Bytes of the decoded hash. */
  outputLen: number;
}

// Unpadded standard base64 only, as argon2's reference encoder writes it; the parameters are
// whole numbers of at most ten digits, so no value reaches past what a number holds exactly.
const ENCODED =
  /^\$(argon2id|argon2i|argon2d)\$(?:v=(\d{1,10})\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * The parameters of `stored`, or null when it is not an encoded argon2 hash.
 *
 * @example
 * parseArgon2('$argon2id$v=19$m=19456,t=2,p=1$…$…')?.memoryCost; // 19456
 */
export function parseArgon2(stored: string): Argon2Parameters | null {
  const match = ENCODED.exec(stored);
  if (!match) return null;
  const [, variant, version, m, t, p, salt, hash] = match as unknown as [
    string,
    Argon2Parameters['variant'],
    string | undefined,
    string,
    string,
    string,
    string,
    string,
  ];
  const saltLen = base64Bytes(salt);
  const outputLen = base64Bytes(hash);
  if (saltLen === null || outputLen === null) return null;
  return {
    variant,
    version: version === undefined ? 16 : Number(version),
    memoryCost: Number(m),
    timeCost: Number(t),
    parallelism: Number(p),
    saltLen,
    outputLen,
  };
}

/** Bytes an unpadded base64 text decodes to, or null for a length no encoder writes. */
function base64Bytes(text: string): number | null {
  if (text.length % 4 === 1) return null;
  return Math.floor((text.length * 3) / 4);
}
