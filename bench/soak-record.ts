/** What a soak records (the JSON `soak-plot.ts` draws) and its verdict on it. */
import { createHistogram } from 'node:perf_hooks';
import type { WindowCpu } from './soak-cpu.js';
import { KINDS, type WindowLatency } from './soak-mix.js';

/**
 * One sampling window of the open loop, ending at `second`. The CPU fields and the p99 of session
 * and password requests are absent from soaks recorded before them.
 */
export interface SoakWindow extends Partial<WindowCpu> {
  second: number;
  /** The window's length, in s (the last may be shorter). */
  seconds: number;
  requests: number;
  /** Latency of the window's requests, in ms. */
  p50: number;
  p99: number;
  max: number;
  inFlight: number;
  /** The server's latest memory sample (after a full GC), in bytes. */
  rss: number;
  heapUsed: number;
  /** The server's event-loop delay since the previous window, in ms (null: not scraped). */
  loopP99: number | null;
  loopMax: number | null;
  /** p99 of the checks, refreshes and revokes of sessions, in ms (null: none in the window). */
  sessionP99?: number | null;
  /** p99 of the requests that hash a password (password and MFA sign-ins), in ms. */
  passwordP99?: number | null;
}

/** One condition of the soak, met or not, in a sentence. */
interface SoakCheck {
  ok: boolean;
  detail: string;
}

/** A whole soak: the peak, the rate, the counts and every sample. */
export interface SoakRecord {
  date: string;
  commit: string;
  machine: string;
  peak: { seconds: number; requestsPerSecond: number; operationsPerSecond: number } | null;
  rate: { requestsPerSecond: number; operationsPerSecond: number; source: string };
  /** The open loop's length, and its sampling, warm-up and first/last-minute windows, in s. */
  seconds: number;
  sampleSeconds: number;
  warmupSeconds: number;
  compareSeconds?: number;
  requests: number;
  maxInFlight: number;
  counts: Record<string, number>;
  wrong: number;
  errors: number;
  failures: string[];
  windows: SoakWindow[];
  /** The server's memory just after a full GC, at seconds of the open loop (negative before). */
  memory: { second: number; rss: number; heapUsed: number }[];
  checks: SoakCheck[];
  /** Comparisons printed for information only, outside the verdict. */
  notes?: string[];
}

const MINUTE = 60;
const P99_BOUND = 0.2;
const MEMORY_BOUND = 0.1;

const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/**
 * The soak's conditions: no wrong answer or error, every kind of request seen, the p99 of the
 * last minute at most 20 % above the first minute's after the warm-up, and RSS and heap after GC
 * at the end at most 10 % above their first sample after the warm-up. Drift is what a soak looks
 * for: a p99 that falls as the server warms, or RSS that glibc hands back, is no failure. With fewer than three minutes
 * after the warm-up, the "minutes" are a third of what follows it, in whole windows.
 * `histograms` holds each window's latencies, so that a minute's p99 is of all its requests.
 * `notes` hold the same first-against-last comparison for session requests alone and for those
 * that hash a password, outside the verdict.
 */
export function soakVerdict(
  record: SoakRecord,
  histograms: WindowLatency[],
): { compareSeconds: number; scaled: boolean; checks: SoakCheck[]; notes: string[] } {
  const { windows, sampleSeconds: sample, warmupSeconds: warmup, seconds } = record;
  const after = seconds - warmup;
  const scaled = after < 3 * MINUTE;
  const compareSeconds = scaled
    ? Math.max(sample, Math.floor(after / 3 / sample) * sample)
    : MINUTE;
  const checks: SoakCheck[] = [];
  const failures = record.wrong + record.errors;
  checks.push({
    ok: failures === 0,
    detail: `${record.wrong} wrong answers, ${record.errors} errors`,
  });
  const missing = KINDS.filter((kind) => !record.counts[kind]);
  checks.push({
    ok: missing.length === 0,
    detail:
      missing.length === 0 ? 'every kind of request answered' : `never sent: ${missing.join(', ')}`,
  });

  const p99Of = (from: number, to: number, group: keyof WindowLatency = 'all') => {
    const merged = createHistogram();
    let n = 0;
    for (const [i, w] of windows.entries()) {
      if (w.second > from && w.second <= to + 1) {
        merged.add(histograms[i]![group]);
        n += 1;
      }
    }
    return n > 0 && merged.count > 0 ? merged.percentile(99) / 1000 : null;
  };
  const first = p99Of(warmup, warmup + compareSeconds);
  const last = p99Of(seconds - compareSeconds, seconds);
  if (first === null || last === null) {
    checks.push({ ok: false, detail: 'too few latency windows: run longer' });
  } else {
    const ratio = last / first - 1;
    checks.push({
      ok: ratio <= P99_BOUND,
      detail:
        `p99 of the first ${compareSeconds} s after the warm-up (${warmup} s) ${first.toFixed(1)} ms, ` +
        `of the last ${compareSeconds} s ${last.toFixed(1)} ms (${pct(ratio)}; bound +20 %)`,
    });
  }
  // The same comparison per group, for information: which requests slowed down.
  const notes: string[] = [];
  for (const [group, name] of [
    ['session', 'session checks, refreshes and revokes'],
    ['password', 'password-hashing sign-ins'],
  ] as const) {
    const from = p99Of(warmup, warmup + compareSeconds, group);
    const to = p99Of(seconds - compareSeconds, seconds, group);
    notes.push(
      from === null || to === null
        ? `p99 of ${name}: too few requests to compare`
        : `p99 of ${name}: first ${compareSeconds} s ${from.toFixed(1)} ms, ` +
            `last ${compareSeconds} s ${to.toFixed(1)} ms (${pct(to / from - 1)})`,
    );
  }

  const base = record.memory.find((m) => m.second >= warmup);
  const end = record.memory.filter((m) => m.second <= seconds + 1).at(-1);
  if (!base || !end || end === base) {
    checks.push({ ok: false, detail: 'too few memory samples after the warm-up: run longer' });
  } else {
    for (const [key, name] of [
      ['rss', 'RSS'],
      ['heapUsed', 'heap after GC'],
    ] as const) {
      const ratio = end[key] / base[key] - 1;
      checks.push({
        ok: ratio <= MEMORY_BOUND,
        detail:
          `${name} ${mb(base[key])} after the warm-up (${base.second.toFixed(0)} s), ` +
          `${mb(end[key])} at the end (${end.second.toFixed(0)} s): ${pct(ratio)}; bound +10 %`,
      });
    }
  }
  return { compareSeconds, scaled, checks, notes };
}
