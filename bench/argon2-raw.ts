/**
 * Child process of `signin-rate.ts`: the raw argon2id verify rate of the cores it is pinned to,
 * with the server's parameters and as many verifications at a time as `UV_THREADPOOL_SIZE` (the
 * server's pool), for `SECONDS`. Prints one JSON line: the rate, and the longest the event loop
 * waited meanwhile, and the CPU time of its main thread (the event loop) and of the whole process
 * per verification: argon2 runs on libuv's pool, so the main thread's share stays near zero.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { argon2VerifyRate } from './argon2-rate.js';
import { mainThreadCpuMicros, processCpuMicros } from './process-tree.js';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const seconds = Number(process.env.SECONDS ?? 5);
const [mainBefore, allBefore] = [mainThreadCpuMicros(process.pid), processCpuMicros(process.pid)];
const rate = await argon2VerifyRate(seconds);
const verifications = rate * seconds;
const mainUs = (mainThreadCpuMicros(process.pid) - mainBefore) / verifications;
const allUs = (processCpuMicros(process.pid) - allBefore) / verifications;
delay.disable();
process.stdout.write(
  JSON.stringify({ rate, loopDelayMaxMs: delay.max / 1e6, mainUs, allUs }) + '\n',
);
