/** The size of libuv's thread pool. */
import { availableParallelism } from 'node:os';

/**
 * The thread pool size to start a server process with: `UV_THREADPOOL_SIZE` when set, else one
 * thread per core (at least two). The pool reads files and checks imported scrypt, PBKDF2 and
 * bcrypt hashes, which are CPU-bound, so more threads than cores only make them and the event
 * loop take turns (argon2id has threads of its own: `crypto/argon2-pool.ts`). libuv reads the
 * variable once, when the pool first starts, which for an ES module entry point is before its
 * first line runs (the loader reads files through the pool): set it in the environment of the
 * process.
 *
 * @example
 * spawn(process.execPath, [entry], { env: { ...process.env, UV_THREADPOOL_SIZE: String(threadPoolSize()) } });
 */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.UV_THREADPOOL_SIZE);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(2, availableParallelism());
}
