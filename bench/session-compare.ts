/**
 * The session check against its ceiling and a peer, in one run (`npm run bench:session`):
 * (a) Gatehouse's `POST /sdk/v1/b2b/sessions/authenticate`, (b) a bare Fastify server answering
 * the same bytes from memory, (c) Better Auth's `GET /api/auth/get-session` with its organization
 * plugin on SQLite. Each server runs in its own process pinned to core 0; this process, the load
 * generator, runs on core 1 (the npm script pins it). Alternating rounds of bounded autocannon
 * runs on loopback, every answer checked for the right member and organization ids. Prints
 * Markdown for RESULTS.md.
 *
 * The Gatehouse server runs its build, as `gatehouse serve` does (run `npm run build` first; the
 * benchmark refuses a build older than its sources), or its TypeScript sources with
 * `BENCH_SOURCE=1`.
 * `BENCH_ROUNDS` (3) and `BENCH_DURATION` (5 s) bound the run; `BENCH_PROFILE=<dir>` writes a
 * CPU profile of the Gatehouse server over the measured rounds there, read with
 * `profile-summary.ts`. `BENCH_BASELINE=<path>` adds the `bench/session-server.ts` of another
 * checkout (an earlier commit, with its own node_modules, built in the same way) as a fourth
 * server, so that before and after are measured in the same rounds. `BENCH_POSTGRES=1` adds Gatehouse over a throwaway
 * PostgreSQL cluster (durable, as deployed) as another server in the same rounds, the cluster
 * pinned to the server core too, and its backends' CPU counted per request; `=socket` connects
 * over the cluster's Unix socket instead of loopback TCP, `=both` measures the two side by side.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { startPostgresCluster } from '../scripts/postgres-cluster.mjs';
import { basic, serverFlags, startBenchServer, startChild } from './load.js';
import { pinProcessTree, treeCpuMicros } from './process-tree.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;
const SERVER_CPU = '0';
const PROFILE_DIR = process.env.BENCH_PROFILE;
const BASELINE = process.env.BENCH_BASELINE;
/** '1': PostgreSQL over loopback TCP; 'socket': over its Unix socket. */
const POSTGRES = process.env.BENCH_POSTGRES;

/** One server under test: how to load it and how to recognise a right answer. */
interface Target {
  name: string;
  pid: number;
  options: autocannon.Options;
  verify: (body: string) => boolean;
  /** CPU time of the database server's processes so far (PostgreSQL), in microseconds. */
  databaseCpu?: () => number;
}

/** A run's figures. */
interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  failed: number;
  serverCpuUs: number;
  loaderCpuUs: number;
  databaseCpuUs: number;
}

/** User + system CPU time of a process so far, in microseconds (`/proc/<pid>/stat`). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux
}

async function run(target: Target, seconds: number): Promise<Run> {
  const serverBefore = cpuMicros(target.pid);
  const databaseBefore = target.databaseCpu?.() ?? 0;
  const loaderBefore = process.cpuUsage();
  const result = await autocannon({
    ...target.options,
    connections: CONNECTIONS,
    duration: seconds,
    verifyBody: (body) => typeof body === 'string' && target.verify(body),
  });
  const loader = process.cpuUsage(loaderBefore);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.mismatches + result.timeouts,
    serverCpuUs: cpuMicros(target.pid) - serverBefore,
    loaderCpuUs: loader.user + loader.system,
    databaseCpuUs: (target.databaseCpu?.() ?? 0) - databaseBefore,
  };
}

const children: ChildProcess[] = [];
const stopAll = () => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
  cluster?.stop();
  cluster = null;
};
let cluster: Awaited<ReturnType<typeof startPostgresCluster>> | null = null;
process.on('exit', stopAll);

const pinned = { cpus: SERVER_CPU };
// The server's build, as `gatehouse serve` runs it (its sources with BENCH_SOURCE=1).
const gatehouse = await startBenchServer(PROFILE_DIR ? { BENCH_PROFILE: PROFILE_DIR } : {}, {
  ...pinned,
  nodeFlags: serverFlags(),
});
children.push(gatehouse.child);
const g = gatehouse.target;
const gatehouseHeaders = {
  authorization: basic(g.publicToken, g.sessionToken),
  'content-type': 'application/json',
};
const gatehouseOptions = {
  url: `${g.url}/sdk/v1/b2b/sessions/authenticate`,
  method: 'POST',
  headers: gatehouseHeaders,
  body: '{}',
} satisfies autocannon.Options;
const memberAndOrganization = (body: string) =>
  body.includes(`"member_id":"${g.memberId}"`) &&
  body.includes(`"organization_id":"${g.organizationId}"`);

// The ceiling answers exactly the bytes of one real answer.
const answer = await fetch(gatehouseOptions.url, {
  method: 'POST',
  headers: gatehouseHeaders,
  body: '{}',
});
const answerBytes = await answer.text();
if (!answer.ok || !memberAndOrganization(answerBytes)) {
  throw new Error(`Gatehouse answered ${answer.status}: ${answerBytes}`);
}
const bodyFile = join(mkdtempSync(join(tmpdir(), 'gatehouse-ceiling-')), 'answer.json');
writeFileSync(bodyFile, answerBytes);
const ceiling = await startChild('session-ceiling.ts', { BODY_FILE: bodyFile }, pinned);
children.push(ceiling.child);
const ceilingUrl = (JSON.parse(ceiling.line) as { url: string }).url;

const peer = await startChild('session-peer.ts', { BETTER_AUTH_TELEMETRY: '0' }, pinned);
children.push(peer.child);
const p = JSON.parse(peer.line) as {
  url: string;
  cookie: string;
  userId: string;
  organizationId: string;
};

const baseline = BASELINE
  ? await startBenchServer({}, { ...pinned, file: BASELINE, nodeFlags: serverFlags() })
  : null;
if (baseline) children.push(baseline.child);

// PostgreSQL shares the server's core: Gatehouse and its database get one core between them.
// 'both' runs one server over loopback TCP and one over the Unix socket, on the same cluster.
const postgresModes =
  { '1': ['TCP'], tcp: ['TCP'], socket: ['Unix socket'], both: ['TCP', 'Unix socket'] }[
    POSTGRES ?? ''
  ] ?? [];
const postgres: { mode: string; child: ChildProcess; target: (typeof gatehouse)['target'] }[] = [];
let postmaster = 0;
if (postgresModes.length > 0) {
  cluster = await startPostgresCluster({ durable: true });
  postmaster = Number(readFileSync(join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  pinProcessTree(postmaster, SERVER_CPU);
  // The socket is <dir>/.s.PGSQL.<port>: the host parameter names the folder.
  const socketDir = encodeURIComponent(dirname(cluster.data));
  const { port } = new URL(cluster.url);
  const serverKey = randomBytes(32).toString('hex');
  for (const mode of postgresModes) {
    const server = await startBenchServer(
      {
        DATABASE_URL:
          mode === 'TCP'
            ? cluster.url
            : `postgres://postgres@localhost:${port}/postgres?host=${socketDir}`,
        GATEHOUSE_SERVER_KEY: serverKey,
        ...(PROFILE_DIR
          ? { BENCH_PROFILE: PROFILE_DIR, BENCH_PROFILE_NAME: `gatehouse-postgres-${mode[0]}` }
          : {}),
      },
      { ...pinned, nodeFlags: serverFlags() },
    );
    children.push(server.child);
    postgres.push({ mode, child: server.child, target: server.target });
  }
}

const targets: Target[] = [
  {
    name: 'Gatehouse sessions/authenticate',
    pid: gatehouse.child.pid!,
    options: gatehouseOptions,
    verify: memberAndOrganization,
  },
  {
    name: 'ceiling: bare Fastify, same bytes',
    pid: ceiling.child.pid!,
    options: { ...gatehouseOptions, url: `${ceilingUrl}/sdk/v1/b2b/sessions/authenticate` },
    verify: memberAndOrganization,
  },
  {
    name: 'peer: Better Auth get-session',
    pid: peer.child.pid!,
    options: { url: `${p.url}/api/auth/get-session`, method: 'GET', headers: { cookie: p.cookie } },
    verify: (body) =>
      body.includes(`"userId":"${p.userId}"`) &&
      body.includes(`"activeOrganizationId":"${p.organizationId}"`),
  },
];
if (baseline) {
  const b = baseline.target;
  targets.push({
    name: 'Gatehouse baseline (BENCH_BASELINE)',
    pid: baseline.child.pid!,
    options: {
      ...gatehouseOptions,
      url: `${b.url}/sdk/v1/b2b/sessions/authenticate`,
      headers: { ...gatehouseHeaders, authorization: basic(b.publicToken, b.sessionToken) },
    },
    verify: (body) =>
      body.includes(`"member_id":"${b.memberId}"`) &&
      body.includes(`"organization_id":"${b.organizationId}"`),
  });
}

for (const { mode, child, target: pgTarget } of postgres) {
  targets.push({
    name: `Gatehouse on PostgreSQL, ${mode} (BENCH_POSTGRES)`,
    pid: child.pid!,
    options: {
      ...gatehouseOptions,
      url: `${pgTarget.url}/sdk/v1/b2b/sessions/authenticate`,
      headers: {
        ...gatehouseHeaders,
        authorization: basic(pgTarget.publicToken, pgTarget.sessionToken),
      },
    },
    verify: (body) =>
      body.includes(`"member_id":"${pgTarget.memberId}"`) &&
      body.includes(`"organization_id":"${pgTarget.organizationId}"`),
    databaseCpu: () => treeCpuMicros(postmaster),
  });
}

console.log(`# Session check against its ceiling and a peer — ${new Date().toISOString()}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ` +
    `servers on core ${SERVER_CPU}, load generator on the other; ${CONNECTIONS} connections, ` +
    `${ROUNDS} rounds × ${SECONDS} s after a 2 s warm-up each; answer ${answerBytes.length} bytes\n`,
);

for (const target of targets) await run(target, 2); // JIT, caches, SQLite's page cache

const runs = new Map<Target, Run[]>(targets.map((t) => [t, []]));
// The profile covers the measured rounds only (the other servers' turns show as idle).
const profiled = [gatehouse.child, ...postgres.map((server) => server.child)];
if (PROFILE_DIR) for (const child of profiled) child.kill('SIGUSR2');
console.log('| round | server | requests/s | p50 | p99 | server CPU/request | failed |');
console.log('|---|---|---|---|---|---|---|');
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts with the next server, so none always runs first or last.
  const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
  for (const target of order) {
    const r = await run(target, SECONDS);
    runs.get(target)!.push(r);
    console.log(
      `| ${round + 1} | ${target.name} | ${(r.requests / r.seconds).toFixed(0)} | ${r.p50} ms | ` +
        `${r.p99} ms | ${(r.serverCpuUs / r.requests).toFixed(0)} µs | ${r.failed} |`,
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const summary = new Map<Target, number>();
console.log(
  '\n| server | requests/s | p50 (median) | p99 (median · worst) | server CPU/request | ' +
    'load generator CPU/request | database CPU/request | failed |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const target of targets) {
  const rs = runs.get(target)!;
  const requests = rs.reduce((s, r) => s + r.requests, 0);
  const rate = requests / rs.reduce((s, r) => s + r.seconds, 0);
  summary.set(target, rate);
  const cpu = rs.reduce((s, r) => s + r.serverCpuUs, 0) / requests;
  const loader = rs.reduce((s, r) => s + r.loaderCpuUs, 0) / requests;
  const database = rs.reduce((s, r) => s + r.databaseCpuUs, 0) / requests;
  console.log(
    `| ${target.name} | ${rate.toFixed(0)} | ${median(rs.map((r) => r.p50))} ms | ` +
      `${median(rs.map((r) => r.p99))} · ${Math.max(...rs.map((r) => r.p99))} ms | ` +
      `${cpu.toFixed(0)} µs | ${loader.toFixed(0)} µs | ` +
      `${target.databaseCpu ? `${database.toFixed(0)} µs` : 'in process'} | ` +
      `${rs.reduce((s, r) => s + r.failed, 0)} |`,
  );
}
const [mine, top, other] = targets;
const rateOf = (t: Target | undefined) => summary.get(t!) ?? 0;
const baselineTarget = targets.find((t) => t.name.includes('BENCH_BASELINE'));
const postgresTargets = targets.filter((t) => t.name.includes('BENCH_POSTGRES'));
const vs = (t: Target | undefined, label: string) =>
  t ? `; Gatehouse / ${label}: **${(rateOf(mine) / rateOf(t)).toFixed(2)}**` : '';
console.log(
  `\nGatehouse / ceiling: **${(rateOf(mine) / rateOf(top)).toFixed(2)}**` +
    vs(other, 'peer') +
    vs(baselineTarget, 'baseline') +
    postgresTargets
      .map(
        (t) => `; ${t.name.split(' (')[0]} / SQLite: **${(rateOf(t) / rateOf(mine)).toFixed(2)}**`,
      )
      .join('') +
    '.',
);
// Other work on the machine slows whole rounds: each round's own ratios are steadier.
const perRound = (a: Target, b: Target) => {
  const ours = runs.get(a)!;
  const theirs = runs.get(b)!;
  const ratios = ours.map(
    (r, i) => r.requests / r.seconds / (theirs[i]!.requests / theirs[i]!.seconds),
  );
  return `${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')})`;
};
console.log(
  `Per round, median (each round): Gatehouse / ceiling ${perRound(mine!, top!)}; ` +
    `Gatehouse / peer ${perRound(mine!, other!)}` +
    (baselineTarget ? `; Gatehouse / baseline ${perRound(mine!, baselineTarget)}` : '') +
    postgresTargets
      .map((t) => `; ${t.name.split(' (')[0]} / SQLite ${perRound(t, mine!)}`)
      .join('') +
    '.',
);
if (PROFILE_DIR) {
  const before = new Set(readdirSync(PROFILE_DIR));
  for (const child of profiled) child.kill('SIGUSR2');
  while (readdirSync(PROFILE_DIR).filter((f) => !before.has(f)).length < profiled.length) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`\nProfiles of the Gatehouse servers written to ${PROFILE_DIR}.`);
}
stopAll();
