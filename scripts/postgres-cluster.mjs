// A throwaway PostgreSQL cluster from Debian's binaries: initdb and pg_ctl in a temporary folder,
// on a free loopback port, stopped and removed by `stop()`. Installs Debian's postgresql when it
// is missing and this runs as root; otherwise says what to install. Used by the PostgreSQL run of
// the server suite and by the benchmarks.
import { execFileSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function postgresBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((v) => join(root, v, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')));
  return found ?? null;
}

/** The folder of PostgreSQL's binaries, installing Debian's package first when root may. */
function ensurePostgres() {
  let bin = postgresBin();
  if (bin) return bin;
  if (!isRoot) {
    console.error(
      'PostgreSQL is missing. Install it with:\n  sudo apt-get update && sudo apt-get install -y postgresql',
    );
    process.exit(1);
  }
  console.log('Installing Debian postgresql…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
    stdio: 'inherit',
    env,
  });
  bin = postgresBin();
  if (!bin) throw new Error('postgresql installed, but no initdb under /usr/lib/postgresql');
  return bin;
}

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Free space a cluster in shared memory needs: a whole test run peaks at about 80 MiB. */
const SHARED_MEMORY_NEEDED = 1024 ** 3;

/**
 * Where a cluster's folder goes: for one that need not be durable, shared memory (`/dev/shm`)
 * when there is one, writable and with room to spare (a container's is often 64 MiB), since
 * creating and removing a test database's files on a disk's file system costs the kernel more
 * than all the rest of making it; the temporary folder otherwise.
 */
function clusterParent(durable) {
  const shm = '/dev/shm';
  if (durable || !existsSync(shm)) return tmpdir();
  try {
    accessSync(shm, constants.W_OK);
    const { bavail, bsize } = statfsSync(shm);
    return bavail * bsize >= SHARED_MEMORY_NEEDED ? shm : tmpdir();
  } catch {
    // Not writable here: the temporary folder.
    return tmpdir();
  }
}

/**
 * Starts a cluster. `durable: false` turns fsync, synchronous commits and full-page writes off and
 * keeps the cluster in memory, for tests whose data dies with the cluster; benchmarks keep
 * PostgreSQL's defaults, on disk.
 *
 * @returns {Promise<{ url: string, data: string, stop: () => void }>}
 */
export async function startPostgresCluster({ durable = false } = {}) {
  const bin = ensurePostgres();
  /** Runs a PostgreSQL tool, as the postgres user when this is root (PostgreSQL refuses root). */
  const pg = (tool, args) => {
    const command = join(bin, tool);
    const [file, argv] = isRoot
      ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
      : [command, args];
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  const dir = mkdtempSync(join(clusterParent(durable), 'gatehouse-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const settings = durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const stop = () => {
    try {
      pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // Already down: nothing to stop.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    pg('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300${settings}`,
      'start',
    ]);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, data, stop };
}
