/**
 * argon2id on threads of their own, at a lower scheduling priority than the event loop.
 *
 * A hash is 15–20 ms of CPU. On libuv's pool it ran at the event loop's priority, so on a busy
 * core every session check queued behind the hashes of the sign-ins around it. Here each worker
 * thread lowers its own priority (`nice` +5 on Linux, which applies to one thread): when the
 * event loop has work the kernel runs it first, and the hashes take the rest of the core. At most
 * one hash runs per core the process may use (more only make them evict each other's 19 MiB and
 * take turns), and the rest wait in order.
 *
 * Workers start on the first hash and hold the process open only while they have one; the native
 * binding is loaded by them, not by the main thread. Should a
 * worker fail before it ever answers (a platform without worker threads, say), hashing falls back
 * to libuv's pool for the rest of the process, which is how it ran before.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Options } from '@node-rs/argon2';

/**
 * How much lower than the process the hashing threads run (Linux `nice` steps, up to 19). At +5
 * a contended core gives the event loop three quarters and the hashes a quarter (CFS weights
 * 1024 and 335): on one core with eight connections of session checks, checks kept a p99 of
 * 8 ms beside 14 sign-ins/s, where +10 left the sign-ins 6/s for the same p99 (bench/RESULTS.md).
 */
export const HASH_THREAD_NICE = 5;

/** One piece of work for a hashing thread. */
type Argon2Job =
  | { op: 'hash'; password: string; options: Options }
  | { op: 'verify'; hash: string; password: string };

type Answer = { id: number; value: string | boolean } | { id: number; error: string };

interface Pending {
  id: number;
  job: Argon2Job;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Pending | null;
  /** The worker has answered at least once: a later failure is its own, not the platform's. */
  proven: boolean;
}

/**
 * The number of hashing threads: `HASH_THREADS` when it is a positive whole number, else one per
 * core this process may run on (`taskset` and cpusets count; a container's CPU quota does not,
 * so set it there).
 *
 * @example
 * hashThreads({ HASH_THREADS: '2' }); // 2
 */
export function hashThreads(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.HASH_THREADS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, availableParallelism());
}

// The worker's whole program. CommonJS and plain JavaScript, so that it runs the same under the
// built server and under a test runner that loads the TypeScript sources.
function workerSource(argon2Path: string, nice: number): string {
  return `
const { parentPort } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { getPriority, setPriority } = require('node:os');
const { hashSync, verifySync } = require(${JSON.stringify(argon2Path)});
try {
  const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  setPriority(thread, Math.min(19, getPriority(thread) + ${nice}));
} catch {
  // Not Linux: the thread keeps the process's priority.
}
parentPort.on('message', ({ id, job }) => {
  try {
    const value = job.op === 'hash' ? hashSync(job.password, job.options) : verifySync(job.hash, job.password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;
}

/**
 * A queue of argon2 work in front of {@link hashThreads} worker threads.
 *
 * @example
 * const pool = new Argon2Pool({ size: 2 });
 * const stored = await pool.hash('hunter2', { memoryCost: 19456, timeCost: 2 });
 * await pool.verify(stored, 'hunter2'); // true
 */
export class Argon2Pool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private source: string | null = null;
  /** Set when worker threads failed to start: every job runs on libuv's pool instead. */
  private fallback = false;

  private readonly size: number;
  private readonly nice: number;
  private readonly argon2Module: string;

  /**
   * @param options.size How many threads at most ({@link hashThreads} by default).
   * @param options.nice How much lower their priority is ({@link HASH_THREAD_NICE} by default).
   * @param options.argon2Module The argon2 binding the threads load (`@node-rs/argon2` by default).
   */
  constructor(options: { size?: number; nice?: number; argon2Module?: string } = {}) {
    this.size = options.size ?? hashThreads();
    this.nice = options.nice ?? HASH_THREAD_NICE;
    this.argon2Module = options.argon2Module ?? '@node-rs/argon2';
  }

  /** Hashes `password` with `options` (argon2's encoded form). */
  hash(password: string, options: Options): Promise<string> {
    return this.run({ op: 'hash', password, options }) as Promise<string>;
  }

  /** Whether `password` matches the encoded hash; rejects when the hash cannot be read. */
  verify(hash: string, password: string): Promise<boolean> {
    return this.run({ op: 'verify', hash, password }) as Promise<boolean>;
  }

  /** Stops every worker; queued and running jobs are refused. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const pending of this.queue.splice(0)) pending.reject(new Error('argon2 pool closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private run(job: Argon2Job): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      const pending = { id: this.nextId++, job, resolve, reject };
      if (this.fallback) return onLibuv(pending);
      this.queue.push(pending);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => candidate.pending === null);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        const started = this.spawn();
        if (!started) return;
        slot = started;
      }
      const pending = this.queue.shift() as Pending;
      slot.pending = pending;
      slot.worker.ref();
      slot.worker.postMessage({ id: pending.id, job: pending.job });
    }
  }

  private spawn(): Slot | null {
    let worker: Worker;
    try {
      this.source ??= workerSource(
        createRequire(import.meta.url).resolve(this.argon2Module),
        this.nice,
      );
      worker = new Worker(this.source, { eval: true, execArgv: [] });
    } catch {
      this.useLibuv();
      return null;
    }
    const slot: Slot = { worker, pending: null, proven: false };
    this.slots.push(slot);
    worker.on('message', (answer: Answer) => this.answered(slot, answer));
    worker.on('error', (error) => this.failed(slot, error));
    worker.on('exit', (code) => this.failed(slot, new Error(`argon2 worker exited (${code})`)));
    return slot;
  }

  private answered(slot: Slot, answer: Answer): void {
    const pending = slot.pending;
    slot.pending = null;
    slot.proven = true;
    slot.worker.unref();
    if (pending && pending.id === answer.id) {
      if ('error' in answer) pending.reject(new Error(answer.error));
      else pending.resolve(answer.value);
    }
    this.dispatch();
  }

  private failed(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const pending = slot.pending;
    slot.pending = null;
    if (!slot.proven) {
      // The platform cannot run the worker: the job, and every later one, runs on libuv's pool.
      this.useLibuv();
      if (pending) onLibuv(pending);
      return;
    }
    pending?.reject(error);
    this.dispatch();
  }

  private useLibuv(): void {
    this.fallback = true;
    for (const pending of this.queue.splice(0)) onLibuv(pending);
  }
}

/**
 * Runs a job on libuv's pool, the way hashing ran before it had threads of its own. The binding
 * loads here on first use: a server that hashes on its threads never loads it on the main one.
 */
function onLibuv({ job, resolve, reject }: Pending): void {
  import('@node-rs/argon2')
    .then(({ hash, verify }): Promise<string | boolean> =>
      job.op === 'hash' ? hash(job.password, job.options) : verify(job.hash, job.password),
    )
    .then(resolve, reject);
}
