/**
 * Password sign-ins against the raw argon2id rate (`npm run bench:signin`), on one core and on
 * two: the server and a raw verifier (`argon2-raw.ts`, the same parameters, one verification at a
 * time per core as the server's hashing threads do, which is also the raw rate's best) pinned to
 * the same cores, in alternating rounds. Then the session check's latency alone and during a
 * burst of sign-ins, with the server's longest event-loop delay over each (from its `/metrics`):
 * argon2 runs on threads of lower priority, so sign-ins must not hold up the checks. Every answer is
 * checked. `BENCH_ROUNDS` (2) and `BENCH_DURATION` (8 s) bound the run; prints Markdown.
 */
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { basic, serverFlags, startBenchServer, startChild, type BenchTarget } from './load.js';
import { scrapeProcess } from './metrics-scrape.js';
import { mainThreadCpuMicros, processCpuMicros } from './process-tree.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const SIGN_IN_CONNECTIONS = 8;
const CHECK_CONNECTIONS = 8;
const CORE_SETS = cpus().length > 1 ? ['0', '0,1'] : ['0'];

/** The libuv pool a server on `cores` starts with (one thread per core, at least two: threadpool.ts). */
const poolFor = (cores: string) => String(Math.max(2, cores.split(',').length));
/** Verifications at a time: one per core, as the server's hashing threads (argon2-pool.ts). */
const hashesFor = (cores: string) => String(cores.split(',').length);

function signIns(target: BenchTarget, seconds: number) {
  return autocannon({
    url: `${target.url}/sdk/v1/b2b/passwords/authenticate`,
    method: 'POST',
    headers: {
      authorization: basic(target.publicToken, target.publicToken),
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      organization_id: target.organizationId,
      email_address: target.email,
      password: target.password,
      session_duration_minutes: 60,
    }),
    connections: SIGN_IN_CONNECTIONS,
    duration: seconds,
    verifyBody: (body) =>
      typeof body === 'string' && body.includes(`"member_id":"${target.memberId}"`),
  });
}

function checks(target: BenchTarget, seconds: number) {
  return autocannon({
    url: `${target.url}/sdk/v1/b2b/sessions/authenticate`,
    method: 'POST',
    headers: {
      authorization: basic(target.publicToken, target.sessionToken),
      'content-type': 'application/json',
    },
    body: '{}',
    connections: CHECK_CONNECTIONS,
    duration: seconds,
    verifyBody: (body) =>
      typeof body === 'string' && body.includes(`"member_id":"${target.memberId}"`),
  });
}

/** The 1-minute load average, recorded beside every figure: other work shares this machine. */
const load = () => loadavg()[0]!.toFixed(1);

const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;

const failed = (r: autocannon.Result) => r.non2xx + r.errors + r.mismatches + r.timeouts;

interface Raw {
  rate: number;
  loopDelayMaxMs: number;
  /** CPU per verification on the main thread, and in the whole process (µs). */
  mainUs: number;
  allUs: number;
}

async function rawRate(cores: string): Promise<Raw> {
  const { line } = await startChild(
    'argon2-raw.ts',
    { SECONDS: String(SECONDS), UV_THREADPOOL_SIZE: hashesFor(cores) },
    { cpus: cores },
  );
  return JSON.parse(line) as Raw;
}

console.log(`# Password sign-ins against raw argon2id — ${new Date().toISOString()}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ` +
    `${ROUNDS} rounds × ${SECONDS} s; ${SIGN_IN_CONNECTIONS} sign-in connections\n`,
);

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

for (const cores of CORE_SETS) {
  const { child, target } = await startBenchServer(
    { UV_THREADPOOL_SIZE: poolFor(cores) },
    { cpus: cores, nodeFlags: serverFlags() },
  );
  children.push(child);
  await signIns(target, 2); // warm-up
  console.log(`## cores ${cores} (${hashesFor(cores)} hashing threads)\n`);
  console.log(
    '| round | raw argon2id verifications/s | sign-ins/s | sign-ins / raw | CPU per verification: main thread · all | CPU per sign-in: main thread · all | failed | load avg |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so neither always meets the other's leftovers.
    const rawFirst = round % 2 === 1;
    const raw = rawFirst ? await rawRate(cores) : null;
    const [mainBefore, allBefore] = [mainThreadCpuMicros(child.pid!), processCpuMicros(child.pid!)];
    const measured = await signIns(target, SECONDS);
    const mainUs = (mainThreadCpuMicros(child.pid!) - mainBefore) / measured.requests.total;
    const allUs = (processCpuMicros(child.pid!) - allBefore) / measured.requests.total;
    const rawAfter = raw ?? (await rawRate(cores));
    const rate = measured.requests.total / measured.duration;
    ratios.push(rate / rawAfter.rate);
    console.log(
      `| ${round} | ${rawAfter.rate.toFixed(1)} (loop delay max ${rawAfter.loopDelayMaxMs.toFixed(1)} ms) | ` +
        `${rate.toFixed(1)} | **${((100 * rate) / rawAfter.rate).toFixed(0)} %** | ` +
        `${ms(rawAfter.mainUs)} · ${ms(rawAfter.allUs)} | ${ms(mainUs)} · ${ms(allUs)} | ` +
        `${failed(measured)} | ${load()} |`,
    );
  }

  await scrapeProcess(target.url); // resets the event-loop figures
  const alone = await checks(target, SECONDS);
  const aloneLoop = await scrapeProcess(target.url);
  const [burst, during] = await Promise.all([signIns(target, SECONDS), checks(target, SECONDS)]);
  const burstLoop = await scrapeProcess(target.url);
  console.log(
    '\n| session checks | requests/s | p50 | p99 | server loop delay max | failed | load avg |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const row = (label: string, r: autocannon.Result, loop: { loopDelayMaxMs: number }) =>
    console.log(
      `| ${label} | ${(r.requests.total / r.duration).toFixed(0)} | ${r.latency.p50} ms | ` +
        `**${r.latency.p99} ms** | ${loop.loopDelayMaxMs.toFixed(1)} ms | ${failed(r)} | ${load()} |`,
    );
  row('alone', alone, aloneLoop);
  row(
    `during sign-ins (${(burst.requests.total / burst.duration).toFixed(1)}/s)`,
    during,
    burstLoop,
  );
  console.log(`\nSign-ins / raw, by round: ${ratios.map((r) => r.toFixed(2)).join(', ')}.\n`);
  child.kill('SIGTERM');
}
