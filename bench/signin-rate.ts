/**
 * Password sign-ins against the raw argon2id rate (`npm run bench:signin`), on one core and on
 * two: the server and a raw verifier (`argon2-raw.ts`, the same parameters, one verification at a
 * time per core as the server's hashing threads do, which is also the raw rate's best) pinned to
 * the same cores, and the floor (`signin-floor.ts`: HTTP, the hash on the server's hashing threads
 * and the RS256 signature, nothing else) on the same cores too, in rounds that rotate their order.
 * The floor is the best any sign-in that follows the protocol could do. Then the session check's
 * latency alone and during a burst of sign-ins, with the server's longest event-loop delay over
 * each (from its `/metrics`): argon2 runs on threads of lower priority, so sign-ins must not hold
 * up the checks. Every answer is checked. `BENCH_ROUNDS` (2) and `BENCH_DURATION` (8 s) bound the run; prints Markdown.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  basic,
  passwordSignIn,
  serverFlags,
  startBenchServer,
  startChild,
  type BenchTarget,
} from './load.js';
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
    ...passwordSignIn(target),
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

/** What one sign-in server did over a measured run. */
interface SignIns {
  rate: number;
  /** CPU per sign-in on the main thread, and in the whole process (µs). */
  mainUs: number;
  allUs: number;
  failed: number;
}

async function measureSignIns(pid: number, target: BenchTarget): Promise<SignIns> {
  const [mainBefore, allBefore] = [mainThreadCpuMicros(pid), processCpuMicros(pid)];
  const measured = await signIns(target, SECONDS);
  const total = measured.requests.total;
  return {
    rate: total / measured.duration,
    mainUs: (mainThreadCpuMicros(pid) - mainBefore) / total,
    allUs: (processCpuMicros(pid) - allBefore) / total,
    failed: failed(measured),
  };
}

/** The floor (`signin-floor.ts`) on `cores`, answering the bytes of one real sign-in. */
async function startFloor(target: BenchTarget, cores: string) {
  const { url: signInUrl, ...request } = passwordSignIn(target);
  const response = await fetch(signInUrl, request);
  const answer = await response.text();
  if (!response.ok) throw new Error(`Gatehouse answered ${response.status}: ${answer}`);
  const answerFile = join(mkdtempSync(join(tmpdir(), 'gatehouse-floor-')), 'answer.json');
  writeFileSync(answerFile, answer);
  const floor = await startChild(
    'signin-floor.ts',
    { ANSWER_FILE: answerFile, PASSWORD: target.password, UV_THREADPOOL_SIZE: poolFor(cores) },
    { cpus: cores },
  );
  const { url } = JSON.parse(floor.line) as { url: string };
  return { child: floor.child, target: { ...target, url } };
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)} %`;

for (const cores of CORE_SETS) {
  const { child, target } = await startBenchServer(
    { UV_THREADPOOL_SIZE: poolFor(cores) },
    { cpus: cores, nodeFlags: serverFlags() },
  );
  children.push(child);
  const floor = await startFloor(target, cores);
  children.push(floor.child);
  await signIns(target, 2); // warm-up
  await signIns(floor.target, 2);
  console.log(`## cores ${cores} (${hashesFor(cores)} hashing threads)\n`);
  console.log(
    '| round | raw argon2id verifications/s | sign-ins/s | floor sign-ins/s | sign-ins / raw | floor / raw | sign-ins / floor | CPU per verification: main thread · all | CPU per sign-in: main thread · all | floor: main thread · all | failed | load avg |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const ratios = { raw: [] as number[], floor: [] as number[], ofFloor: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    // Each round starts with the next of the three, so none always meets another's leftovers.
    const steps = [
      async () => ({ raw: await rawRate(cores) }),
      async () => ({ gatehouse: await measureSignIns(child.pid!, target) }),
      async () => ({ floor: await measureSignIns(floor.child.pid!, floor.target) }),
    ];
    let got: { raw?: Raw; gatehouse?: SignIns; floor?: SignIns } = {};
    for (let i = 0; i < steps.length; i++) {
      got = { ...got, ...(await steps[(i + round - 1) % steps.length]!()) };
    }
    const { raw, gatehouse, floor: best } = got as Required<typeof got>;
    ratios.raw.push(gatehouse.rate / raw.rate);
    ratios.floor.push(best.rate / raw.rate);
    ratios.ofFloor.push(gatehouse.rate / best.rate);
    console.log(
      `| ${round} | ${raw.rate.toFixed(1)} (loop delay max ${raw.loopDelayMaxMs.toFixed(1)} ms) | ` +
        `${gatehouse.rate.toFixed(1)} | ${best.rate.toFixed(1)} | ` +
        `**${percent(gatehouse.rate, raw.rate)}** | ${percent(best.rate, raw.rate)} | ` +
        `${percent(gatehouse.rate, best.rate)} | ${ms(raw.mainUs)} · ${ms(raw.allUs)} | ` +
        `${ms(gatehouse.mainUs)} · ${ms(gatehouse.allUs)} | ${ms(best.mainUs)} · ${ms(best.allUs)} | ` +
        `${gatehouse.failed + best.failed} | ${load()} |`,
    );
  }
  floor.child.kill('SIGTERM');

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
  const list = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(', ');
  console.log(
    `\nBy round: sign-ins / raw ${list(ratios.raw)}; floor / raw ${list(ratios.floor)}; ` +
      `sign-ins / floor ${list(ratios.ofFloor)}.\n`,
  );
  child.kill('SIGTERM');
}
