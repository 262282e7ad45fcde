/**
 * Benchmarks: widget bundle sizes, and sessions/authenticate throughput and p99 latency with
 * autocannon against a server in its own process on loopback (bounded runs). Prints a table to
 * copy into RESULTS.md with the date and machine.
 */
import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measureBundles } from './bundle-size.js';

const here = dirname(fileURLToPath(import.meta.url));
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

interface SessionTarget {
  url: string;
  publicToken: string;
  sessionToken: string;
}

async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'session-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, target: JSON.parse(line) as SessionTarget };
}

async function load(target: SessionTarget, seconds: number) {
  const auth = Buffer.from(`${target.publicToken}:${target.sessionToken}`).toString('base64');
  return autocannon({
    url: `${target.url}/sdk/v1/b2b/sessions/authenticate`,
    method: 'POST',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
    body: '{}',
    connections: CONNECTIONS,
    duration: seconds,
  });
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

console.log(`# Gatehouse benchmarks — ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}\n`,
);

console.log('## Widget bundle (gzip -9)');
for (const size of measureBundles()) {
  console.log(
    `- ${size.name}: ${kb(size.gzipBytes)} gzip (${kb(size.bytes)} raw; ${size.files.join(', ')})`,
  );
}

console.log(
  `\n## POST /sdk/v1/b2b/sessions/authenticate (${CONNECTIONS} connections, ${DURATION_S} s)`,
);
const { child, target } = await startServer();
try {
  await load(target, 3); // warm-up: JIT, caches, SQLite page cache
  const result = await load(target, DURATION_S);
  const ok = result['2xx'];
  console.log(
    `- requests/s: ${result.requests.average.toFixed(0)} (2xx: ${ok}, non-2xx: ${result.non2xx}, errors: ${result.errors})`,
  );
  console.log(
    `- latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
} finally {
  child.kill('SIGTERM');
}
