// Runs the server suite again on a real PostgreSQL: a throwaway cluster (initdb and pg_ctl in a
// temporary folder, on a free port) that is stopped and removed afterwards.
import { spawnSync } from 'node:child_process';
import { startPostgresCluster } from './postgres-cluster.mjs';

const cluster = await startPostgresCluster();
let status;
try {
  console.log(`PostgreSQL at ${cluster.url}: running the server suite against it.`);
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'server'], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: cluster.url },
  });
  status = run.status ?? 1;
} finally {
  cluster.stop();
}
process.exit(status ?? 1);
