/**
 * Scale-out benchmarks, measured side by side in one run: sessions/authenticate and magic-link
 * authenticate on SQLite and on PostgreSQL, and on one instance against two over one PostgreSQL.
 * PostgreSQL is a throwaway cluster with its default durability (fsync on). Every load is a
 * bounded autocannon run from this process on loopback. Prints Markdown for RESULTS.md.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { startPostgresCluster } from '../scripts/postgres-cluster.mjs';
import { linkLoad, sessionLoad, startBenchServer, type BenchTarget } from './load.js';

const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = 32;
const LINKS = Number(process.env.BENCH_LINKS ?? 2000);

type Result = autocannon.Result;
const row = (label: string, results: Result[], seconds?: number) => {
  // Completed requests over the run's duration; a link run, which ends when its links are spent,
  // is timed by the wall clock (autocannon's own duration is too coarse for a few seconds).
  const rps =
    seconds === undefined
      ? results.reduce((sum, r) => sum + r.requests.total / r.duration, 0)
      : results.reduce((sum, r) => sum + r.requests.total, 0) / seconds;
  const p50 = Math.max(...results.map((r) => r.latency.p50));
  const p99 = Math.max(...results.map((r) => r.latency.p99));
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  console.log(`| ${label} | ${rps.toFixed(0)} | ${p50} ms | ${p99} ms | ${failed} |`);
  return rps;
};

/** sessions/authenticate spread over the instances, `CONNECTIONS` in all; warmed up first. */
async function sessions(targets: BenchTarget[]): Promise<Result[]> {
  const per = Math.max(1, Math.floor(CONNECTIONS / targets.length));
  await Promise.all(targets.map((t) => sessionLoad(t, 2, per)));
  return Promise.all(targets.map((t) => sessionLoad(t, SECONDS, per)));
}

/** Every login link redeemed once, half on each instance when there are two; and the seconds. */
async function links(targets: BenchTarget[]): Promise<[Result[], number]> {
  const all = targets[0]!.links;
  const share = Math.ceil(all.length / targets.length);
  const per = Math.max(1, Math.floor(CONNECTIONS / targets.length));
  const started = performance.now();
  const results = await Promise.all(
    targets.map((t, i) => linkLoad(t, all.slice(i * share, (i + 1) * share), per)),
  );
  return [results, (performance.now() - started) / 1000];
}

const children: ChildProcess[] = [];
const start = async (env: Record<string, string>) => {
  const server = await startBenchServer(env);
  children.push(server.child);
  return server.target;
};
const stopAll = () => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
};

console.log(`# Scale-out — ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}\n`);
console.log('| run | requests/s | p50 | p99 | non-2xx |');
console.log('|---|---|---|---|---|');

const figures: Record<string, number> = {};
try {
  const sqlite = await start({ LINKS: String(LINKS) });
  figures.sqliteSessions = row(
    'sessions/authenticate, SQLite, 1 instance',
    await sessions([sqlite]),
  );
  figures.sqliteLinks = row(
    'magic-link authenticate, SQLite, 1 instance',
    ...(await links([sqlite])),
  );
  stopAll();

  const cluster = await startPostgresCluster({ durable: true });
  try {
    const serverKey = randomBytes(32).toString('hex');
    const one = await start({
      DATABASE_URL: cluster.url,
      GATEHOUSE_SERVER_KEY: serverKey,
      LINKS: String(LINKS * 2),
    });
    const oneLinks = { ...one, links: one.links.slice(0, LINKS) };
    const twoLinks = one.links.slice(LINKS);
    figures.pgSessions = row(
      'sessions/authenticate, PostgreSQL, 1 instance',
      await sessions([one]),
    );
    figures.pgLinks = row(
      'magic-link authenticate, PostgreSQL, 1 instance',
      ...(await links([oneLinks])),
    );

    const second = await start({
      DATABASE_URL: cluster.url,
      GATEHOUSE_SERVER_KEY: serverKey,
      SEED: 'false',
    });
    const both = [
      { ...one, links: twoLinks },
      { ...one, url: second.url, links: twoLinks },
    ];
    figures.pgSessions2 = row(
      'sessions/authenticate, PostgreSQL, 2 instances',
      await sessions(both),
    );
    figures.pgLinks2 = row(
      'magic-link authenticate, PostgreSQL, 2 instances',
      ...(await links(both)),
    );
  } finally {
    stopAll();
    cluster.stop();
  }
} finally {
  stopAll();
}

const ratio = (a = 0, b = 1) => (a / b).toFixed(2);
console.log(
  `\nTwo instances against one: sessions ${ratio(figures.pgSessions2, figures.pgSessions)}×, ` +
    `magic links ${ratio(figures.pgLinks2, figures.pgLinks)}×.`,
);
const vcpus = cpus().length;
console.log(
  `Per vCPU (${vcpus} here, shared with the load generator and PostgreSQL): ` +
    `${((figures.pgSessions ?? 0) / vcpus).toFixed(0)} session refreshes/s on PostgreSQL, ` +
    `${((figures.sqliteSessions ?? 0) / vcpus).toFixed(0)} on SQLite.`,
);
