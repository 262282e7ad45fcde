// Runs the server suites where the SQL dialect matters again on a real PostgreSQL: a throwaway
// cluster (initdb and pg_ctl in a temporary folder, on a free port) that is stopped and removed
// afterwards. Everything else goes through the same store code on either engine, and runs once.
//
// The suites chosen: the storage conformance suite, the stores and migrations (every test under
// store/ and every *store* test), scale-out, crash safety and upgrades, and every test that races
// or speaks to the database by URL (its text says "concurren…", "at the same time", "race", or
// names TEST_DATABASE_URL or testDatabase). `--all` runs the whole server suite instead; other
// options are passed to vitest.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresCluster } from './postgres-cluster.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverSources = join(root, 'packages/server/src');

const BY_PATH = [
  /(^|\/)store\//,
  /store[^/]*\.test\.ts$/,
  /(^|\/)(scale-out|crash-safety|upgrade)\.test\.ts$/,
];
const BY_TEXT = /concurren|at the same time|\brac(e|es|ing)\b|TEST_DATABASE_URL|testDatabase\(/i;

/** The server test files, relative to the repository root, that the PostgreSQL pass runs. */
function dialectSuites() {
  const files = readdirSync(serverSources, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => file.split('\\').join('/'))
    .sort();
  return files
    .filter(
      (file) =>
        BY_PATH.some((pattern) => pattern.test(file)) ||
        BY_TEXT.test(readFileSync(join(serverSources, file), 'utf8')),
    )
    .map((file) => relative(root, join(serverSources, file)));
}

const all = process.argv.includes('--all');
/** Other options (e.g. `--maxWorkers=1`) go to vitest as they are. */
const passed = process.argv.slice(2).filter((arg) => arg !== '--all');
const suites = all ? [] : dialectSuites();
const cluster = await startPostgresCluster();
let status;
try {
  console.log(
    `PostgreSQL at ${cluster.url}: running ${all ? 'the whole server suite' : `${suites.length} server test files`} against it.`,
  );
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...passed, ...suites], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: cluster.url },
  });
  status = run.status ?? 1;
} finally {
  cluster.stop();
}
process.exit(status ?? 1);
