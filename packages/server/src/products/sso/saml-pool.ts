/**
 * A small pool of worker threads that check SAML responses (saml-worker.ts), so that XML parsing
 * and signature verification never hold the main thread. Each response gets a time budget on its
 * worker: past it, the worker is terminated (a fresh one takes its place) and the response is
 * refused. The queue is bounded in length and in waiting time; past either, the response is
 * refused as "busy" rather than left to pile up.
 *
 * The worker runs from the built `.js` next to this file or, when this file itself is TypeScript
 * (tests run the sources), from the `.ts` source, with tsx's loader registered in the worker first.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SamlCheckInput, SamlCheckResult } from './saml-verify.js';

/** What the pool answers: the check's result, or a refusal because the pool is saturated. */
export type SamlPoolResult = SamlCheckResult | { ok: false; busy: true; reason: string };

export interface SamlPoolOptions {
  /** How many workers at most. */
  size: number;
  /** Worker time one response may use before it is refused and its worker terminated. */
  budgetMs: number;
  /** How many responses may wait for a worker. */
  maxQueue: number;
  /** How long a response may wait for a worker. */
  maxWaitMs: number;
}

/** Defaults: 2 to 4 workers, 1 s per response, 64 waiting for at most 5 s. */
export const SAML_POOL_DEFAULTS: SamlPoolOptions = {
  size: Math.max(2, Math.min(4, availableParallelism() - 1)),
  budgetMs: 1_000,
  maxQueue: 64,
  maxWaitMs: 5_000,
};

interface Job {
  id: number;
  input: SamlCheckInput;
  /** When it started waiting for a worker (reset once the first worker has booted). */
  queuedAt: number;
  resolve(result: SamlPoolResult): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 };

function spawn(): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./saml-worker.js', import.meta.url), {
      execArgv: [],
      resourceLimits: LIMITS,
    });
  }
  // From the sources: register tsx's loader inside the worker, then load the TypeScript entry.
  const tsx = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = pathToFileURL(join(dirname(tsx), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./saml-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, execArgv: [], resourceLimits: LIMITS });
}

/**
 * Runs SAML checks on worker threads, one response per worker at a time.
 *
 * @example
 * const pool = new SamlPool({ ...SAML_POOL_DEFAULTS, budgetMs: 500 });
 * const result = await pool.check(input);
 */
export class SamlPool {
  readonly #options: SamlPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  /** Whether a worker has started yet: waiting for the first to boot does not count as waiting. */
  #warm = false;

  constructor(options: SamlPoolOptions = SAML_POOL_DEFAULTS) {
    this.#options = options;
  }

  /** Checks one response on a worker, within the budget. */
  check(input: SamlCheckInput): Promise<SamlPoolResult> {
    if (this.#closed) return Promise.reject(new Error('The SAML pool is closed.'));
    if (this.#queue.length >= this.#options.maxQueue) {
      return Promise.resolve({
        ok: false,
        busy: true,
        reason: 'Too many SAML responses are being checked; try again in a moment.',
      });
    }
    return new Promise<SamlPoolResult>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, input, queuedAt: Date.now(), resolve, reject });
      this.#dispatch();
    });
  }

  /** Terminates the workers; waiting responses are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('The SAML pool is closed.'));
    const slots = [...this.#slots];
    this.#slots.clear();
    await Promise.all(slots.map((s) => this.#retire(s)));
  }

  #dispatch(): void {
    const now = Date.now();
    while (
      this.#warm &&
      this.#queue[0] &&
      now - this.#queue[0].queuedAt > this.#options.maxWaitMs
    ) {
      this.#queue.shift()?.resolve({
        ok: false,
        busy: true,
        reason: 'The SAML response waited too long to be checked; try again in a moment.',
      });
    }
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (slot.ready && slot.job === null) this.#run(slot, this.#queue.shift() as Job);
    }
    const starting = [...this.#slots].filter((s) => !s.ready).length;
    if (this.#queue.length > starting && this.#slots.size < this.#options.size) this.#start();
  }

  #run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      slot.job = null;
      this.#drop(slot);
      job.resolve({
        ok: false,
        reason: `The SAML response took more than ${this.#options.budgetMs} ms to check.`,
      });
    }, this.#options.budgetMs);
    slot.worker.postMessage({ id: job.id, input: job.input });
  }

  #start(): void {
    const slot: Slot = { worker: spawn(), ready: false, job: null, timer: null };
    this.#slots.add(slot);
    slot.worker.unref();
    slot.worker.on(
      'message',
      (message: { ready?: true; id?: number; result?: SamlCheckResult }) => {
        if (message.ready) {
          slot.ready = true;
          if (!this.#warm) {
            // Waiting for the first worker to boot does not count as waiting for a worker.
            this.#warm = true;
            const now = Date.now();
            for (const job of this.#queue) job.queuedAt = now;
          }
        } else if (slot.job && message.id === slot.job.id && message.result) {
          const job = slot.job;
          if (slot.timer) clearTimeout(slot.timer);
          slot.job = null;
          slot.timer = null;
          job.resolve(message.result);
        }
        this.#dispatch();
      },
    );
    const lost = (error: Error) => {
      if (!this.#slots.has(slot)) return;
      const wasReady = slot.ready;
      this.#drop(slot);
      if (slot.job) {
        slot.job.resolve({
          ok: false,
          reason: `The SAML response could not be checked: ${error.message}.`,
        });
      } else if (!wasReady) {
        // A worker that cannot even start would fail every response alike: say so loudly.
        for (const job of this.#queue.splice(0)) job.reject(error);
      }
      this.#dispatch();
    };
    slot.worker.on('error', lost);
    slot.worker.on('exit', (code) => lost(new Error(`the worker stopped (exit code ${code})`)));
  }

  /** Forgets a slot and terminates its worker; its job, if any, is the caller's to answer. */
  #drop(slot: Slot): void {
    this.#slots.delete(slot);
    void this.#retire(slot);
    if (!this.#closed) setImmediate(() => this.#dispatch());
  }

  async #retire(slot: Slot): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    await slot.worker.terminate();
  }
}

let shared: SamlPool | null = null;

/** The process's pool, started on first use. */
export function samlPool(): SamlPool {
  shared ??= new SamlPool();
  return shared;
}
