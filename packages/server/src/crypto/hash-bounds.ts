/**
 * The work a stored password hash may ask of one sign-in. Imported and migrated hashes carry
 * their own cost parameters; these bounds keep any of them from turning a sign-in into a CPU or
 * memory bomb. Migration refuses a hash outside them with the message of the check, and
 * verification treats one that got in some other way as not valid, before doing any work.
 */
import type { Argon2Parameters } from './argon2-phc.js';

/**
 * The bounds, per algorithm. Generous enough for the parameters real systems use (bcrypt cost
 * 10–12, scrypt N=2^14–2^17 with r=8, argon2 up to 64 MiB, Django's 1 000 000 PBKDF2 rounds,
 * WordPress's 2^13 phpass rounds), tight enough that one sign-in costs at most about a second of
 * one core and 256 MiB.
 *
 * @example
 * HASH_BOUNDS.bcrypt.maxCost; // 15
 */
export const HASH_BOUNDS = {
  bcrypt: { minCost: 4, maxCost: 15 },
  argon2: {
    maxMemoryKib: 256 * 1024,
    maxIterations: 32,
    /** Memory times passes, in KiB: 64 MiB × 16 passes, or 256 MiB × 4. */
    maxWorkKib: 1024 * 1024,
    maxThreads: 16,
    saltBytes: [8, 48],
    keyBytes: [16, 64],
  },
  scrypt: {
    maxN: 2 ** 20,
    maxR: 32,
    maxP: 16,
    /** 128·N·r bytes: what one derivation allocates. */
    maxMemoryBytes: 256 * 1024 * 1024,
    /** 128·N·r·p bytes: the memory-hard mixing one derivation does. */
    maxWorkBytes: 1024 * 1024 * 1024,
    keyBytes: [16, 128],
  },
  pbkdf2: { maxIterations: 2_000_000, keyBytes: [16, 128] },
  phpass: { minLog2Rounds: 7, maxLog2Rounds: 16 },
} as const;

const within = (value: number, [min, max]: readonly [number, number]) =>
  Number.isSafeInteger(value) && value >= min && value <= max;

/**
 * What is wrong with a bcrypt cost, or null when it is within bounds.
 *
 * @example
 * bcryptCostProblem(31); // 'bcrypt cost must be 4 to 15.'
 */
export function bcryptCostProblem(cost: number): string | null {
  const { minCost, maxCost } = HASH_BOUNDS.bcrypt;
  return within(cost, [minCost, maxCost]) ? null : `bcrypt cost must be ${minCost} to ${maxCost}.`;
}

/** The parameters of an argon2 hash. */
export interface Argon2Params {
  memoryKib: number;
  iterations: number;
  threads: number;
  saltBytes: number;
  keyBytes: number;
}

/**
 * What is wrong with argon2 parameters, or null when they are within bounds.
 *
 * @example
 * argon2Problem({ memoryKib: 4194304, iterations: 2, threads: 1, saltBytes: 16, keyBytes: 32 });
 * // 'argon2 memory must be 8 to 262144 KiB (256 MiB).'
 */
export function argon2Problem(p: Argon2Params): string | null {
  const b = HASH_BOUNDS.argon2;
  if (!within(p.threads, [1, b.maxThreads])) return `argon2 threads must be 1 to ${b.maxThreads}.`;
  if (!within(p.memoryKib, [8 * p.threads, b.maxMemoryKib])) {
    return `argon2 memory must be ${8 * p.threads} to ${b.maxMemoryKib} KiB (256 MiB).`;
  }
  if (!within(p.iterations, [1, b.maxIterations])) {
    return `argon2 iterations must be 1 to ${b.maxIterations}.`;
  }
  if (p.memoryKib * p.iterations > b.maxWorkKib) {
    return `argon2 memory times iterations must be at most ${b.maxWorkKib} KiB (1 GiB).`;
  }
  if (!within(p.saltBytes, b.saltBytes)) {
    return `argon2 salt must be ${b.saltBytes[0]} to ${b.saltBytes[1]} bytes.`;
  }
  if (!within(p.keyBytes, b.keyBytes)) {
    return `argon2 key length must be ${b.keyBytes[0]} to ${b.keyBytes[1]} bytes.`;
  }
  return null;
}

/**
 * {@link argon2Problem} for the parameters of an encoded (PHC) argon2 hash, as `parseArgon2`
 * reads them.
 *
 * @example
 * const problem = encodedArgon2Problem(parsed);
 */
export function encodedArgon2Problem(options: Argon2Parameters): string | null {
  return argon2Problem({
    memoryKib: options.memoryCost,
    iterations: options.timeCost,
    threads: options.parallelism,
    saltBytes: options.saltLen,
    keyBytes: options.outputLen,
  });
}

/**
 * What is wrong with scrypt parameters, or null when they are within bounds. N must be a power
 * of two.
 *
 * @example
 * scryptProblem({ n: 2 ** 14, r: 8, p: 1, keyBytes: 32 }); // null
 */
export function scryptProblem(params: { n: number; r: number; p: number; keyBytes: number }) {
  const b = HASH_BOUNDS.scrypt;
  const { n, r, p } = params;
  if (!within(n, [2, b.maxN]) || (n & (n - 1)) !== 0) {
    return `scrypt N must be a power of two from 2 to ${b.maxN} (2^20).`;
  }
  if (!within(r, [1, b.maxR])) return `scrypt r must be 1 to ${b.maxR}.`;
  if (!within(p, [1, b.maxP])) return `scrypt p must be 1 to ${b.maxP}.`;
  if (128 * n * r > b.maxMemoryBytes) {
    return 'scrypt memory (128 × N × r bytes) must be at most 256 MiB.';
  }
  if (128 * n * r * p > b.maxWorkBytes) {
    return 'scrypt work (128 × N × r × p bytes) must be at most 1 GiB.';
  }
  if (!within(params.keyBytes, b.keyBytes)) {
    return `scrypt key length must be ${b.keyBytes[0]} to ${b.keyBytes[1]} bytes.`;
  }
  return null;
}

/**
 * What is wrong with PBKDF2 parameters, or null when they are within bounds.
 *
 * @example
 * pbkdf2Problem({ iterations: 600_000, keyBytes: 32 }); // null
 */
export function pbkdf2Problem(params: { iterations: number; keyBytes: number }): string | null {
  const b = HASH_BOUNDS.pbkdf2;
  if (!within(params.iterations, [1, b.maxIterations])) {
    return `pbkdf2 iterations must be 1 to ${b.maxIterations}.`;
  }
  if (!within(params.keyBytes, b.keyBytes)) {
    return `pbkdf2 key length must be ${b.keyBytes[0]} to ${b.keyBytes[1]} bytes.`;
  }
  return null;
}

/**
 * What is wrong with the rounds of a phpass hash (as their base-2 logarithm), or null.
 *
 * @example
 * phpassProblem(13); // null: WordPress's $P$B
 */
export function phpassProblem(log2Rounds: number): string | null {
  const { minLog2Rounds, maxLog2Rounds } = HASH_BOUNDS.phpass;
  return within(log2Rounds, [minLog2Rounds, maxLog2Rounds])
    ? null
    : `phpass rounds must be 2^${minLog2Rounds} to 2^${maxLog2Rounds}.`;
}
