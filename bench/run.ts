/**
 * Benchmarks: widget bundle sizes; sessions/authenticate throughput and latency; password
 * sign-ins against the raw argon2id rate; sessions/authenticate latency while password sign-ins
 * run. Every load is a bounded autocannon run against a server in its own process on loopback.
 * Prints Markdown to copy into RESULTS.md.
 */
import { cpus, totalmem } from 'node:os';
import { argon2VerifyRate, cores } from './argon2-rate.js';
import { measureBundles } from './bundle-size.js';
import { passwordLoad, sessionLoad, startBenchServer } from './load.js';

const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const rate = (n: number) => n.toFixed(0);

console.log(`# Gatehouse benchmarks — ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}\n`,
);

console.log('## Widget bundle, first screen (gzip -9)');
for (const size of measureBundles()) {
  console.log(
    `- ${size.name}: ${kb(size.gzipBytes)} (${kb(size.bytes)} raw: ${size.files.join(', ')})`,
  );
}

const { child, target } = await startBenchServer();
try {
  console.log(`\n## POST /sdk/v1/b2b/sessions/authenticate (32 connections, ${SECONDS} s)`);
  await sessionLoad(target, 3, 32); // warm-up: JIT, caches, SQLite page cache
  const sessions = await sessionLoad(target, SECONDS, 32);
  console.log(
    `- ${rate(sessions.requests.average)} requests/s (non-2xx: ${sessions.non2xx}, errors: ${sessions.errors})`,
  );
  console.log(`- latency p50 ${sessions.latency.p50} ms, p99 ${sessions.latency.p99} ms`);

  console.log(`\n## Password sign-ins (argon2id m=19 MiB, t=2, p=1; ${SECONDS} s)`);
  const raw = await argon2VerifyRate(SECONDS / 2);
  console.log(
    `- raw argon2id verifications: ${rate(raw)}/s (${(raw / cores).toFixed(1)}/s per core)`,
  );
  await passwordLoad(target, 2, 8);
  const passwords = await passwordLoad(target, SECONDS, 8);
  const signIns = passwords.requests.average;
  console.log(
    `- POST /sdk/v1/b2b/passwords/authenticate: ${signIns.toFixed(1)}/s (${(signIns / cores).toFixed(1)}/s per core, ${((100 * signIns) / raw).toFixed(0)}% of raw; non-2xx: ${passwords.non2xx})`,
  );

  console.log(`\n## sessions/authenticate while password sign-ins run (${SECONDS} s)`);
  const [busyPasswords, busySessions] = await Promise.all([
    passwordLoad(target, SECONDS, 8),
    sessionLoad(target, SECONDS, 8),
  ]);
  console.log(
    `- sessions: ${rate(busySessions.requests.average)} requests/s, p50 ${busySessions.latency.p50} ms, p99 ${busySessions.latency.p99} ms (non-2xx: ${busySessions.non2xx})`,
  );
  console.log(`- password sign-ins meanwhile: ${busyPasswords.requests.average.toFixed(1)}/s`);
} finally {
  child.kill('SIGTERM');
}
