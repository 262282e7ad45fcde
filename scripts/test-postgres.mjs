// Runs the server suites where the SQL dialect matters again on a real PostgreSQL: a throwaway
// cluster (initdb and pg_ctl in a temporary folder, on a free port) that is stopped and removed
// afterwards. Everything else goes through the same store code on either engine, and runs once.
//
// Whole files: the storage conformance suite, the stores and migrations (every test under store/
// and every *store* test), scale-out, crash safety, upgrades and imports, and every file that
// speaks to the database by URL (it names TEST_DATABASE_URL or testDatabase). Races: in every
// other file whose text mentions one ("concurren…", "at the same time", "race"), the tests whose
// name (with their describe blocks') says so, or says "at once"; the rest of such a file ran on
// SQLite already.
// `--all` runs the whole server suite instead, and test files named on the command line run
// whole, alone; other options are passed to vitest.
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
  /(^|\/)cli\/import\.test\.ts$/,
];
const BY_URL = /TEST_DATABASE_URL|testDatabase\(/;
/** A file that tests a race says so somewhere in its text. */
const RACE_TEXT = /concurren|at the same time|\brac(e|es|ed|ing)\b/i;
/**
 * A race test says so in its name (or its describe block's), "many times at once" included.
 * vitest's `-t` reads it as a regular expression without flags, so the capitals a name may start
 * with are spelled out.
 */
const RACE_NAME = '[Cc]oncurren|[Aa]t the same time|[Aa]t once|\\b[Rr]ac(e|es|ed|ing)\\b';

/**
 * The server test files, relative to the repository root, that the PostgreSQL pass runs: `whole`
 * ones entirely, `races` ones for their tests named as races.
 */
function dialectSuites() {
  const files = readdirSync(serverSources, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => file.split('\\').join('/'))
    .sort();
  const whole = [];
  const races = [];
  for (const file of files) {
    const text = readFileSync(join(serverSources, file), 'utf8');
    const path = relative(root, join(serverSources, file));
    if (BY_PATH.some((pattern) => pattern.test(file)) || BY_URL.test(text)) whole.push(path);
    else if (RACE_TEXT.test(text)) races.push(path);
  }
  return { whole, races };
}

const all = process.argv.includes('--all');
/** Other options (e.g. `--maxWorkers=1`) go to vitest as they are. */
const passed = process.argv.slice(2).filter((arg) => arg !== '--all');
const named = passed.some((arg) => !arg.startsWith('-'));
/** vitest runs, each a list of arguments after `vitest run --project server`. */
const runs = [];
if (all || named) runs.push([]);
else {
  const { whole, races } = dialectSuites();
  runs.push(whole, ['--testNamePattern', RACE_NAME, ...races]);
  console.log(`${whole.length} server test files whole, and the races of ${races.length} more.`);
}
const cluster = await startPostgresCluster();
let status = 0;
try {
  console.log(`PostgreSQL at ${cluster.url}.`);
  for (const args of runs) {
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...passed, ...args], {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: cluster.url },
    });
    // Every run runs: a failure in one says nothing about the other.
    if (run.status !== 0) status = 1;
  }
} finally {
  cluster.stop();
}
process.exit(status);
