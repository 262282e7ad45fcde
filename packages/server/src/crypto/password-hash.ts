/** Password hashing (argon2id, OWASP parameters) and verification of imported hash formats. */
import { pbkdf2, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import type { Algorithm } from '@node-rs/argon2';
import { parseArgon2 } from './argon2-phc.js';
import { Argon2Pool } from './argon2-pool.js';
import {
  bcryptCostProblem,
  encodedArgon2Problem,
  pbkdf2Problem,
  scryptProblem,
} from './hash-bounds.js';
import { verifyLegacyHash } from './legacy-hash.js';

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify<BinaryLike, BinaryLike, number, ScryptOptions, Buffer>(scrypt);

// `Algorithm` is an ambient const enum, which isolated modules cannot read at runtime; this is its
// documented value.
const ARGON2ID = 2 as Algorithm;

/** Every argon2 hash and verification of the process, on its lower-priority threads. */
const argon2 = new Argon2Pool();

/**
 * The parameters of every new password hash: argon2id with OWASP's recommended minimum
 * (19 MiB of memory, 2 passes, 1 lane), a 32-byte output and a 16-byte random salt.
 *
 * @example
 * PASSWORD_HASH_PARAMS.memoryCost; // 19456 (KiB)
 */
export const PASSWORD_HASH_PARAMS = {
  algorithm: 'argon2id',
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;

/** The shape of a set of argon2id parameters. */
export interface PasswordHashParams {
  algorithm: 'argon2id';
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  outputLen: number;
}

/**
 * Cheap argon2id parameters (1 MiB, 1 pass) for test runs only: see {@link passwordHashParams}.
 * Every hash names its parameters, so hashes made with them verify like any other.
 */
export const TEST_PASSWORD_HASH_PARAMS: PasswordHashParams = {
  algorithm: 'argon2id',
  memoryCost: 1024,
  timeCost: 1,
  parallelism: 1,
  outputLen: 32,
};

/**
 * The parameters new hashes get now: {@link PASSWORD_HASH_PARAMS}, except inside a test runner
 * (`VITEST` set) that asks for cheap hashes with `GATEHOUSE_TEST_FAST_HASH=1`, when `NODE_ENV` is
 * not `production`. A server started any other way (the CLI, a host application, a benchmark)
 * always hashes at full cost. Read on every call, so a suite about hashing can turn it off.
 *
 * @example
 * passwordHashParams().memoryCost; // 19456 outside tests
 */
export function passwordHashParams(): PasswordHashParams {
  const env = process.env;
  const fast =
    env.GATEHOUSE_TEST_FAST_HASH === '1' &&
    env.VITEST !== undefined &&
    env.NODE_ENV !== 'production';
  return fast ? TEST_PASSWORD_HASH_PARAMS : PASSWORD_HASH_PARAMS;
}

/** The outcome of checking a password against a stored hash. */
export interface PasswordVerification {
  /** The password matches the hash. */
  valid: boolean;
  /**
   * The hash should be replaced by {@link hashPassword} of the same password (only ever true when
   * `valid`): it uses another algorithm (an imported hash) or parameters weaker than ours.
   */
  needsRehash: boolean;
}

const INVALID: PasswordVerification = { valid: false, needsRehash: false };

/**
 * Hashes a password with argon2id. The work runs on the hashing threads (`argon2-pool.ts`), so the
 * event loop keeps serving requests, first, while a hash is computed.
 *
 * @example
 * const stored = await hashPassword('correct horse battery staple'); // '$argon2id$v=19$m=19456,t=2,p=1$…'
 */
export async function hashPassword(password: string): Promise<string> {
  const params = passwordHashParams();
  return argon2.hash(password, {
    algorithm: ARGON2ID,
    memoryCost: params.memoryCost,
    timeCost: params.timeCost,
    parallelism: params.parallelism,
    outputLen: params.outputLen,
  });
}

/**
 * Checks a password against a stored hash. Understands our argon2id hashes and, for imported
 * users, PHC argon2i/argon2d, bcrypt (`$2a$`, `$2b$`, `$2y$`), PHC-style scrypt
 * (`$scrypt$ln=…,r=…,p=…$salt$hash`), Django's `pbkdf2_sha256$iterations$salt$hash` and the
 * formats a migration stores (`legacy-hash.ts`: salted MD5, SHA-1 and SHA-512, PBKDF2, phpass).
 * Every comparison is constant-time. An unknown or malformed hash, or one whose parameters are
 * outside `hash-bounds.ts`, is simply not valid: it never throws for bad stored data, and costs
 * nothing.
 *
 * @example
 * const { valid, needsRehash } = await verifyPassword(row.hash, password);
 * if (valid && needsRehash) await savePasswordHash(memberId, await hashPassword(password));
 */
export async function verifyPassword(
  stored: string,
  password: string,
): Promise<PasswordVerification> {
  try {
    if (/^\$argon2(id|i|d)\$/.test(stored)) return await verifyArgon2(stored, password);
    if (/^\$2[aby]\$\d\d\$/.test(stored)) return imported(await verifyBcrypt(stored, password));
    if (stored.startsWith('$scrypt$')) return imported(await verifyScrypt(stored, password));
    if (stored.startsWith('pbkdf2_sha256$')) return imported(await verifyPbkdf2(stored, password));
    const legacy = await verifyLegacyHash(stored, password);
    if (legacy !== null) return imported(legacy);
  } catch {
    // A malformed stored hash is a failed login, not a server error.
    return INVALID;
  }
  return INVALID;
}

/**
 * Whether a stored hash is argon2id with exactly the parameters new hashes get now: checking a
 * wrong password against it costs what {@link verifyAgainstDummy} does.
 *
 * @example
 * isCurrentHash(await hashPassword('x')); // true
 */
export function isCurrentHash(stored: string): boolean {
  const p = passwordHashParams();
  return stored.startsWith(`$argon2id$v=19$m=${p.memoryCost},t=${p.timeCost},p=${p.parallelism}$`);
}

/** The dummy hash of each parameter set in use, made once each. */
const dummyHashes = new Map<PasswordHashParams, Promise<string>>();

/**
 * Spends the same time as verifying a real argon2id hash, and always answers `false`. Call it when
 * no member (or no password) exists for the e-mail, so that response times do not reveal which
 * e-mail addresses have accounts.
 *
 * @example
 * const valid = row ? (await verifyPassword(row.hash, password)).valid : await verifyAgainstDummy(password);
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  // The dummy hash is made once, lazily, with our own parameters so its cost matches real hashes.
  const params = passwordHashParams();
  let dummyHash = dummyHashes.get(params);
  if (!dummyHash) {
    dummyHash = hashPassword('gatehouse-dummy-password');
    dummyHashes.set(params, dummyHash);
  }
  await argon2.verify(await dummyHash, password);
  return false;
}

function imported(valid: boolean): PasswordVerification {
  // Any non-argon2id hash that matched is replaced on this login.
  return { valid, needsRehash: valid };
}

// Imported work factors are bounded (hash-bounds.ts): a stored hash must not be able to make one
// login allocate gigabytes or run for minutes.

async function verifyBcrypt(stored: string, password: string): Promise<boolean> {
  if (bcryptCostProblem(Number(stored.slice(4, 6)))) return false;
  // Loaded on the first imported bcrypt hash: most servers never see one (bench/RESULTS.md,
  // "Idle memory").
  const { verify } = await import('@node-rs/bcrypt');
  return verify(password, stored);
}

async function verifyArgon2(stored: string, password: string): Promise<PasswordVerification> {
  const options = parseArgon2(stored);
  if (!options || encodedArgon2Problem(options)) return INVALID;
  const valid = await argon2.verify(stored, password);
  if (!valid) return INVALID;
  const ours = passwordHashParams();
  const weaker =
    options.variant !== 'argon2id' ||
    options.version !== 19 ||
    options.memoryCost < ours.memoryCost ||
    options.timeCost < ours.timeCost ||
    options.outputLen < ours.outputLen ||
    options.saltLen < 16;
  return { valid: true, needsRehash: weaker };
}

async function verifyScrypt(stored: string, password: string): Promise<boolean> {
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
  if (!match) return false;
  const [, lnText, rText, pText, saltText, hashText] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const ln = Number(lnText);
  const r = Number(rText);
  const p = Number(pText);
  const salt = decodeBase64(saltText);
  const expected = decodeBase64(hashText);
  const N = 2 ** ln;
  if (scryptProblem({ n: N, r, p, keyBytes: expected.length })) return false;
  const derived = await scryptAsync(password, salt, expected.length, {
    N,
    r,
    p,
    // Node refuses anything above 32 MiB by default; allow what these parameters need.
    maxmem: 128 * N * r + 128 * r * p + 1024 * 1024,
  });
  return timingSafeEqual(derived, expected);
}

async function verifyPbkdf2(stored: string, password: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 4) return false;
  const [, iterationsText, salt, hashText] = parts as [string, string, string, string];
  if (!/^\d+$/.test(iterationsText)) return false;
  const iterations = Number(iterationsText);
  const expected = Buffer.from(hashText, 'base64');
  if (pbkdf2Problem({ iterations, keyBytes: expected.length })) return false;
  // Django uses the salt's text as is (not base64-decoded).
  const derived = await pbkdf2Async(password, salt, iterations, expected.length, 'sha256');
  return timingSafeEqual(derived, expected);
}

/** Decodes PHC base64 (unpadded) and passlib's variant that writes `.` for `+`. */
function decodeBase64(text: string): Buffer {
  return Buffer.from(text.replaceAll('.', '+'), 'base64');
}
