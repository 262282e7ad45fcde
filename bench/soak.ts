/**
 * The soak (`npm run bench:soak`): one Gatehouse server (its build, `--expose-gc`) pinned
 * to core 0, this process, the load generator, on core 1 (the npm script pins it), and the mix of
 * `soak-mix.ts` — session checks, refreshes, revokes, password, magic-link and MFA sign-ins, every
 * answer checked.
 *
 * First the peak: 16 closed-loop workers, `SOAK_PEAK_WARMUP` (5) s of warm-up, then
 * `SOAK_PEAK_SECONDS` (60) s measured: long enough that a stretch of a shared machine running
 * faster or slower than usual does not set the rate of the whole hour. Then an open loop at half
 * that rate (or `SOAK_RATE` requests/s): operations start on a schedule, whether or not the earlier
 * ones have answered, at most 256 in flight (a start beyond that is an error), for `SOAK_SECONDS`
 * (3600). Every `SOAK_SAMPLE_SECONDS` (10) s a window is sampled — latency (of all requests, of
 * session requests alone and of those that hash a password), the machine's steal time, how busy the
 * server's core was and the server's CPU time (`soak-cpu.ts`) — and every `SOAK_MEMORY_SECONDS` (a
 * thirtieth of the run, 10 to 60 s) the server's RSS and heap just after a full GC. Fails (exit 1)
 * on any wrong answer or error; when the p99 of the last minute is not within 20 % of the first
 * minute's after the warm-up (`SOAK_WARMUP_SECONDS`, 120 s, or a fifth of a shorter run; with less
 * than three minutes after the warm-up, the "minutes" are a third of what follows it); or when RSS
 * or heap after GC at the end is not within 10 % of its level after the warm-up. The first and last
 * minutes' p99 of session requests alone, and of password-hashing ones, are printed for
 * information. Prints Markdown, and writes every sample as JSON to `SOAK_OUT` (a temporary file by
 * default) for `soak-plot.ts`. `SOAK_MEMBERS` (500) and `SOAK_MFA_MEMBERS` (1000; a member signs in
 * once per 30-s step) set how many members the server seeds for each kind of sign-in
 * (`soak-seed.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { serverFlags, startBenchServer } from './load.js';
import { scrapeProcess } from './metrics-scrape.js';
import { CpuSampler } from './soak-cpu.js';
import { Mix, REQUESTS_PER_OPERATION } from './soak-mix.js';
import { soakVerdict, type SoakRecord, type SoakWindow } from './soak-record.js';

const env = process.env;
const SECONDS = Number(env.SOAK_SECONDS ?? 3600);
const SAMPLE = Number(env.SOAK_SAMPLE_SECONDS ?? 10);
// Each memory sample is a full GC, which stops the server for about the loop delay's maximum: a
// thirtieth of the run apart, at most a minute, so that its pauses stay below a minute's p99.
const MEMORY = Number(
  env.SOAK_MEMORY_SECONDS ??
    Math.max(SAMPLE, Math.min(60, Math.ceil(SECONDS / 30 / SAMPLE) * SAMPLE)),
);
const PEAK_WARMUP = Number(env.SOAK_PEAK_WARMUP ?? 5);
const PEAK_SECONDS = Number(env.SOAK_PEAK_SECONDS ?? 60);
const RATE = env.SOAK_RATE ? Number(env.SOAK_RATE.replace(/\/s$/, '')) : null;
const WARMUP = Number(
  env.SOAK_WARMUP_SECONDS ?? Math.ceil(Math.min(120, SECONDS / 5) / SAMPLE) * SAMPLE,
);
const MAX_IN_FLIGHT = 256;
/** The core the server is pinned to (the load generator is on core 1). */
const SERVER_CORE = 0;
const WORKERS = 16;
const OUT = resolve(
  env.SOAK_OUT ?? join(mkdtempSync(join(tmpdir(), 'gatehouse-soak-')), 'soak.json'),
);

const { child, target } = await startBenchServer(
  { BENCH_MEMORY_MS: String(MEMORY * 1000), SOAK_MEMBERS: env.SOAK_MEMBERS ?? '500' },
  { cpus: String(SERVER_CORE), nodeFlags: [...serverFlags(), '--expose-gc'] },
);
process.on('exit', () => child.kill('SIGTERM'));
const mix = new Mix(target);

/** Seconds since the open loop started (negative before). */
let loopStart = Number.POSITIVE_INFINITY;
const clock = () => (performance.now() - loopStart) / 1000;
/** The server's memory samples, at `performance.now()` (the open loop's seconds come at the end). */
const memory: { at: number; rss: number; heapUsed: number }[] = [];
createInterface({ input: child.stdout! }).on('line', (line) => {
  const parsed = JSON.parse(line) as { memory?: { rss: number; heapUsed: number } };
  if (parsed.memory) memory.push({ at: performance.now(), ...parsed.memory });
});

// Each MFA member spent this step's code on its enrollment: the load starts at the next step.
const enrolledStep = Math.max(...target.soak!.mfa.map((m) => m.step));
const nextStepMs = (enrolledStep + 1) * 30_000 - Date.now();
if (nextStepMs > 0) {
  console.log(
    `Waiting ${(nextStepMs / 1000).toFixed(0)} s for the next TOTP step after the enrollment.`,
  );
  await new Promise((r) => setTimeout(r, nextStepMs + 100));
}

// The peak of the same mix, closed loop.
let peak: SoakRecord['peak'] = null;
if (RATE === null) {
  const begin = performance.now();
  const measureFrom = begin + PEAK_WARMUP * 1000;
  const end = measureFrom + PEAK_SECONDS * 1000;
  let before = { requests: 0, operations: 0 };
  setTimeout(
    () => (before = { requests: mix.requests, operations: mix.operations }),
    PEAK_WARMUP * 1000,
  );
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < end) await mix.next();
    }),
  );
  const seconds = (performance.now() - measureFrom) / 1000;
  peak = {
    seconds,
    requestsPerSecond: (mix.requests - before.requests) / seconds,
    operationsPerSecond: (mix.operations - before.operations) / seconds,
  };
  console.log(
    `Peak of the mix (${WORKERS} closed-loop workers, ${PEAK_SECONDS} s after ${PEAK_WARMUP} s): ` +
      `${peak.requestsPerSecond.toFixed(0)} requests/s (${peak.operationsPerSecond.toFixed(0)} operations/s).`,
  );
}
const requestsPerSecond = RATE ?? peak!.requestsPerSecond / 2;
// The mix's own ratio where measured (inbox reads that needed a second look included).
const perOperation = peak
  ? peak.requestsPerSecond / peak.operationsPerSecond
  : REQUESTS_PER_OPERATION;
const operationsPerSecond = requestsPerSecond / perOperation;
console.log(
  `Open loop at ${requestsPerSecond.toFixed(0)} requests/s (${operationsPerSecond.toFixed(1)} ` +
    `operations/s, ${RATE === null ? 'half the peak' : 'SOAK_RATE'}) for ${SECONDS} s; latency ` +
    `every ${SAMPLE} s, memory after a full GC every ${MEMORY} s.`,
);

// The open loop: counts and latency windows start again; wrong answers and errors of the peak
// count too.
const countsBefore = new Map(mix.counts);
const requestsBefore = mix.requests;
mix.takeWindow();
loopStart = performance.now();
let started = 0;
let inFlight = 0;
let maxInFlight = 0;
const windows: SoakWindow[] = [];
const histograms: ReturnType<Mix['takeWindow']>[] = [];
let requestsAtWindow = mix.requests;
let windowFrom = 0;
const cpu = new CpuSampler(child.pid!, SERVER_CORE);
const p99 = (h: ReturnType<Mix['takeWindow']>['all']) => (h.count ? h.percentile(99) / 1000 : null);
const sample = () => {
  const latency = mix.takeWindow();
  const h = latency.all;
  histograms.push(latency);
  const now = clock();
  const last = memory.at(-1);
  const requests = mix.requests - requestsAtWindow;
  requestsAtWindow = mix.requests;
  const window: SoakWindow = {
    second: Math.round(now),
    seconds: now - windowFrom,
    requests,
    p50: h.count ? h.percentile(50) / 1000 : 0,
    p99: h.count ? h.percentile(99) / 1000 : 0,
    max: h.count ? h.max / 1000 : 0,
    inFlight,
    rss: last?.rss ?? 0,
    heapUsed: last?.heapUsed ?? 0,
    loopP99: null,
    loopMax: null,
    sessionP99: p99(latency.session),
    passwordP99: p99(latency.password),
    ...cpu.take(requests),
  };
  windows.push(window);
  windowFrom = now;
  void scrapeProcess(target.url)
    .then((p) => Object.assign(window, { loopP99: p.loopDelayP99Ms, loopMax: p.loopDelayMaxMs }))
    .catch(() => undefined);
};
const sampler = setInterval(sample, SAMPLE * 1000);
await new Promise<void>((done) => {
  const ticker = setInterval(() => {
    const elapsed = Math.min(SECONDS, clock());
    while (started < Math.floor(elapsed * operationsPerSecond)) {
      started += 1;
      if (inFlight >= MAX_IN_FLIGHT) {
        mix.error(`${MAX_IN_FLIGHT} operations in flight: a start was dropped`);
        continue;
      }
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      void mix.next().finally(() => (inFlight -= 1));
    }
    if (elapsed >= SECONDS) {
      clearInterval(ticker);
      done();
    }
  }, 5);
});
clearInterval(sampler);
const elapsed = clock();
// The operations still in flight answer (or count as errors) before the verdict.
while (inFlight > 0 && clock() < elapsed + 30) await new Promise((r) => setTimeout(r, 50));
if (inFlight > 0) mix.error(`${inFlight} operations unanswered 30 s after the end`);
// The last window, up to the end of the schedule and the answers it waited for.
if ((windows.at(-1)?.second ?? 0) < elapsed - 1) sample();
await new Promise((r) => setTimeout(r, 200));
child.kill('SIGTERM');

const counts = Object.fromEntries(
  [...mix.counts].map(([kind, n]) => [kind, n - (countsBefore.get(kind) ?? 0)]),
);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const record: SoakRecord = {
  date: new Date().toISOString(),
  commit,
  machine: `${hostname()}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`,
  peak,
  rate: {
    requestsPerSecond,
    operationsPerSecond,
    source: RATE === null ? 'half the peak' : 'SOAK_RATE',
  },
  seconds: elapsed,
  sampleSeconds: SAMPLE,
  warmupSeconds: WARMUP,
  requests: mix.requests - requestsBefore,
  maxInFlight,
  counts,
  wrong: mix.wrongCount,
  errors: mix.errorCount,
  failures: [...mix.failures],
  windows,
  memory: memory.map(({ at, rss, heapUsed }) => ({
    second: (at - loopStart) / 1000,
    rss,
    heapUsed,
  })),
  checks: [],
};
const { compareSeconds, checks, scaled, notes } = soakVerdict(record, histograms);
record.compareSeconds = compareSeconds;
record.checks = checks;
record.notes = notes;
writeFileSync(OUT, JSON.stringify(record, null, 1));

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
console.log(`\n# Soak — ${record.date}, build ${commit}`);
console.log(
  `${record.machine}; ${elapsed.toFixed(0)} s at ${requestsPerSecond.toFixed(0)} requests/s ` +
    `(${record.rate.source}), ${record.requests} requests, at most ${maxInFlight} operations in flight:\n` +
    Object.entries(counts)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ') +
    '\n',
);
console.log(
  '| s | requests/s | p50 | p99 | max | p99 session · password | loop delay p99 · max | ' +
    `server CPU · per request (main thread) | core ${SERVER_CORE} busy | steal | RSS | heap after GC |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
const ms = (v: number | null | undefined) => (v == null ? '—' : `${v.toFixed(1)} ms`);
const percent = (v: number | null | undefined) => (v == null ? '—' : `${v.toFixed(1)} %`);
// At most about 40 rows; the JSON has every window.
const every = Math.max(1, Math.ceil(windows.length / 40));
for (const [i, w] of windows.entries()) {
  if (i % every !== 0 && i !== windows.length - 1) continue;
  const loop = w.loopP99 === null ? '—' : `${w.loopP99.toFixed(1)} · ${w.loopMax!.toFixed(0)} ms`;
  const perRequest = w.serverCpuPerRequest == null ? '—' : w.serverCpuPerRequest.toFixed(0);
  const server =
    `${w.serverCpuPercent!.toFixed(0)} % · ${perRequest} µs ` +
    `(${w.serverLoopCpuPercent!.toFixed(0)} %)`;
  console.log(
    `| ${w.second} | ${(w.requests / w.seconds).toFixed(0)} | ${w.p50.toFixed(1)} ms | ${w.p99.toFixed(1)} ms | ` +
      `${w.max.toFixed(0)} ms | ${ms(w.sessionP99)} · ${ms(w.passwordP99)} | ${loop} | ${server} | ` +
      `${percent(w.coreBusyPercent)} | ${percent(w.stealPercent)} | ${mb(w.rss)} MB | ${mb(w.heapUsed)} MB |`,
  );
}
if (scaled)
  console.log(`\nA short run: the first and last "minutes" are ${compareSeconds} s each.`);
console.log('');
for (const check of checks) console.log(`- ${check.ok ? 'ok' : '**FAILED**'}: ${check.detail}`);
for (const note of notes) console.log(`- for information: ${note}`);
if (record.failures.length > 0)
  console.log(`\nFirst failures:\n${record.failures.map((f) => `- ${f}`).join('\n')}`);
console.log(`\nSamples: ${OUT} (plot: npm run bench:soak-plot -- ${OUT} <out.png>)`);
process.exit(checks.every((c) => c.ok) ? 0 : 1);
