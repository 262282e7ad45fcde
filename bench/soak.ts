/**
 * A bounded soak (`npm run bench:soak`): one Gatehouse server on loopback under a mixed load of
 * password sign-ins, session checks, refreshes (a new duration), revokes and checks of revoked
 * sessions, every answer checked, for `SOAK_SECONDS` (180) or `SOAK_REQUESTS` (200,000)
 * requests, whichever comes first. The server reports its memory after a forced GC every
 * `SOAK_SAMPLE_SECONDS` (10) and its event-loop delay through `/metrics`. Fails (exit 1) on any
 * wrong answer or error, or when heap after GC or RSS at the end is more than
 * `SOAK_MEMORY_GROWTH` (10 %) plus 4 MiB above its level after the warm-up (the first fifth of
 * the run, at least one sample). Prints the samples and a summary as Markdown.
 */
import { cpus, loadavg } from 'node:os';
import { createHistogram } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { basic, startBenchServer } from './load.js';
import { scrapeProcess } from './metrics-scrape.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const MAX_REQUESTS = Number(process.env.SOAK_REQUESTS ?? 200_000);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10);
const GROWTH = Number(process.env.SOAK_MEMORY_GROWTH ?? 0.1);
const SLACK_BYTES = 4 * 2 ** 20;
const WORKERS = 16;
/** Sign-ins at a time: argon2 verifications queue on the server's pool of about one per core. */
const SIGN_IN_SLOTS = 2;
const POOL_LOW = 20;
const POOL_HIGH = 200;

const { child, target } = await startBenchServer(
  { BENCH_MEMORY_MS: String(SAMPLE_SECONDS * 1000) },
  { nodeFlags: ['--conditions=source', '--expose-gc'] },
);
process.on('exit', () => child.kill('SIGTERM'));

interface MemorySample {
  at: number;
  rss: number;
  heapUsed: number;
}
const memory: MemorySample[] = [];
const started = performance.now();
createInterface({ input: child.stdout! }).on('line', (line) => {
  const parsed = JSON.parse(line) as { memory?: { rss: number; heapUsed: number } };
  if (parsed.memory) memory.push({ at: (performance.now() - started) / 1000, ...parsed.memory });
});

type Kind = 'sign-in' | 'check' | 'refresh' | 'revoke' | 'revoked check';
const counts = new Map<Kind, number>();
const wrong: string[] = [];
let requests = 0;
let latency = createHistogram();
const windows: { second: number; requests: number; p50: number; p99: number; max: number }[] = [];

/** A live session of the load: its token and how many requests use it right now. */
interface Live {
  token: string;
  inFlight: number;
}
const live: Live[] = [{ token: target.sessionToken, inFlight: 0 }];
const revoked: string[] = [];
let signInsRunning = 0;

async function call(
  kind: Kind,
  path: string,
  token: string,
  body: unknown,
  expect: (status: number, text: string) => boolean,
): Promise<string> {
  const t0 = performance.now();
  let status = 0;
  let text: string;
  try {
    const response = await fetch(`${target.url}/sdk/v1/b2b${path}`, {
      method: 'POST',
      headers: {
        authorization: basic(target.publicToken, token),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    text = String(error);
  }
  latency.record(Math.max(1, Math.round((performance.now() - t0) * 1000)));
  requests += 1;
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
  if (!expect(status, text) && wrong.length < 20)
    wrong.push(`${kind}: ${status} ${text.slice(0, 200)}`);
  return text;
}

const mine = (status: number, text: string) =>
  status === 200 && text.includes(`"member_id":"${target.memberId}"`);
const notFound = (status: number, text: string) =>
  status >= 400 && status < 500 && text.includes('"error_type":"session_not_found"');

async function signIn() {
  signInsRunning += 1;
  try {
    const text = await call(
      'sign-in',
      '/passwords/authenticate',
      target.publicToken,
      {
        organization_id: target.organizationId,
        email_address: target.email,
        password: target.password,
        session_duration_minutes: 60,
      },
      mine,
    );
    const token = /"session_token":"([^"]+)"/.exec(text)?.[1];
    if (token) live.push({ token, inFlight: 0 });
  } finally {
    signInsRunning -= 1;
  }
}

async function useSession(kind: 'check' | 'refresh') {
  const session = live[Math.floor(Math.random() * live.length)]!;
  session.inFlight += 1;
  try {
    const body = kind === 'refresh' ? { session_duration_minutes: 60 } : {};
    await call(kind, '/sessions/authenticate', session.token, body, mine);
  } finally {
    session.inFlight -= 1;
  }
}

async function revoke() {
  // Only a session nothing else is using, taken out of the pool before the request leaves, so
  // that no check can race its revocation.
  const index = live.findIndex((s, i) => i > 0 && s.inFlight === 0);
  if (index < 0) return useSession('check');
  const [session] = live.splice(index, 1);
  await call('revoke', '/sessions/revoke', session!.token, {}, (status) => status === 200);
  revoked.push(session!.token);
  if (revoked.length > 100) revoked.shift();
}

async function revokedCheck() {
  const token = revoked[Math.floor(Math.random() * revoked.length)];
  if (token === undefined) return useSession('check');
  await call('revoked check', '/sessions/authenticate', token, {}, notFound);
}

/** One request of the mix: mostly checks, sign-ins while there is a free slot and few sessions. */
function next(): Promise<unknown> {
  const roll = Math.random();
  if (signInsRunning < SIGN_IN_SLOTS && (live.length < POOL_LOW || roll < 0.03)) return signIn();
  if (live.length > POOL_HIGH || roll < 0.08) return revoke();
  if (roll < 0.15) return revokedCheck();
  if (roll < 0.3) return useSession('refresh');
  return useSession('check');
}

const deadline = started + SECONDS * 1000;
const sampler = setInterval(() => {
  windows.push({
    second: Math.round((performance.now() - started) / 1000),
    requests: latency.count,
    p50: latency.percentile(50) / 1000,
    p99: latency.percentile(99) / 1000,
    max: latency.max / 1000,
  });
  latency = createHistogram();
}, SAMPLE_SECONDS * 1000);
const loops: { second: number; maxMs: number; p99Ms: number; load: number }[] = [];
const loopSampler = setInterval(() => {
  void scrapeProcess(target.url).then((p) =>
    loops.push({
      second: Math.round((performance.now() - started) / 1000),
      maxMs: p.loopDelayMaxMs,
      p99Ms: p.loopDelayP99Ms,
      load: loadavg()[0]!,
    }),
  );
}, SAMPLE_SECONDS * 1000);

await Promise.all(
  Array.from({ length: WORKERS }, async () => {
    while (performance.now() < deadline && requests < MAX_REQUESTS) await next();
  }),
);
const elapsed = (performance.now() - started) / 1000;
clearInterval(sampler);
clearInterval(loopSampler);
// One last memory sample after the load.
await new Promise((resolve) => setTimeout(resolve, SAMPLE_SECONDS * 1000 + 500));
child.kill('SIGTERM');

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
console.log(`# Soak — ${new Date().toISOString()}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ` +
    `${WORKERS} workers, ${elapsed.toFixed(0)} s, ${requests} requests ` +
    `(${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}); ${(requests / elapsed).toFixed(0)}/s\n`,
);
console.log(
  '| s | requests | p50 | p99 | max | loop delay p99 · max | load avg | RSS | heap after GC |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const w of windows) {
  const loop = loops.find((l) => Math.abs(l.second - w.second) <= 1);
  const m = [...memory].reverse().find((s) => s.at <= w.second + 1);
  console.log(
    `| ${w.second} | ${w.requests} | ${w.p50.toFixed(1)} ms | ${w.p99.toFixed(1)} ms | ` +
      `${w.max.toFixed(0)} ms | ${loop ? `${loop.p99Ms.toFixed(1)} · ${loop.maxMs.toFixed(0)} ms` : '—'} | ` +
      `${loop ? loop.load.toFixed(1) : '—'} | ${m ? `${mb(m.rss)} MB` : '—'} | ${m ? `${mb(m.heapUsed)} MB` : '—'} |`,
  );
}

const warm = memory.filter((s) => s.at >= Math.max(SAMPLE_SECONDS, elapsed / 5));
const base = warm[0];
const last = memory.at(-1);
const failures: string[] = [...wrong];
if (!base || !last || warm.length < 2) {
  failures.push('too few memory samples: run longer than two sample intervals');
} else {
  const grown = (key: 'rss' | 'heapUsed') => last[key] > base[key] * (1 + GROWTH) + SLACK_BYTES;
  console.log(
    `\nAfter warm-up (${base.at.toFixed(0)} s) → end: RSS ${mb(base.rss)} → ${mb(last.rss)} MB, ` +
      `heap after GC ${mb(base.heapUsed)} → ${mb(last.heapUsed)} MB ` +
      `(bound: +${(GROWTH * 100).toFixed(0)} % + 4 MiB).`,
  );
  if (grown('heapUsed')) failures.push('heap after GC grew past its bound');
  if (grown('rss')) failures.push('RSS grew past its bound');
}
const [first, ...rest] = windows;
if (first && rest.length > 0) {
  console.log(
    `p99 of the first window ${first.p99.toFixed(1)} ms, of the last ${rest.at(-1)!.p99.toFixed(1)} ms.`,
  );
}
if (failures.length > 0) {
  console.log(`\n**FAILED**:\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('\n0 wrong answers, 0 errors; memory within its bound.');
