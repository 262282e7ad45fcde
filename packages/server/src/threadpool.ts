/** The size of libuv's thread pool that password hashing runs best with. */
import { availableParallelism } from 'node:os';

/**
 * The thread pool size to start a server process with: `UV_THREADPOOL_SIZE` when set, else one
 * thread per core (at least two). argon2 verifications run on this pool and are CPU-bound, so
 * more threads than cores only make them and the event loop take turns: on two cores, four
 * threads (libuv's default) gave 67-75 % of the raw argon2id rate in password sign-ins where two
 * gave 97-100 %, and sessions stayed responsive meanwhile. libuv reads the variable once, when
 * the pool first starts, which for an ES module entry point is before its first line runs (the
 * loader reads files through the pool): set it in the environment of the process.
 *
 * @example
 * spawn(process.execPath, [entry], { env: { ...process.env, UV_THREADPOOL_SIZE: String(threadPoolSize()) } });
 */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.UV_THREADPOOL_SIZE);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(2, availableParallelism());
}
