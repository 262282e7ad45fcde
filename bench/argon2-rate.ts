/** The raw argon2id verify rate of this machine at the server's parameters, for comparison. */
import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { PASSWORD_HASH_PARAMS, threadPoolSize } from '@gatehouse/server';

/**
 * Verifies one password over and over from as many concurrent callers as the server has pool
 * threads, for `seconds`, and returns verifications per second.
 */
export async function argon2VerifyRate(seconds: number): Promise<number> {
  const options = {
    // `Algorithm` is an ambient const enum, unreadable under isolated modules: 2 is Argon2id.
    algorithm: 2 as Algorithm,
    memoryCost: PASSWORD_HASH_PARAMS.memoryCost,
    timeCost: PASSWORD_HASH_PARAMS.timeCost,
    parallelism: PASSWORD_HASH_PARAMS.parallelism,
    outputLen: PASSWORD_HASH_PARAMS.outputLen,
  };
  const stored = await hash('correct horse battery staple 42!', options);
  // As many verifications at a time as the server's pool runs (see `threadPoolSize`). This
  // process keeps libuv's default of four threads unless UV_THREADPOOL_SIZE says otherwise,
  // which covers up to four cores; on larger machines run the benchmark with the variable set.
  const workers = threadPoolSize();
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        if (!(await verify(stored, 'correct horse battery staple 42!'))) {
          throw new Error('argon2 verification failed');
        }
        count += 1;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

export const cores = availableParallelism();
