/**
 * PostgreSQL databases for test harnesses, each a copy of one migrated template: copying a
 * database costs the server about a third of what running every migration in a fresh schema
 * costs it and the test worker, and the worker nothing. Tests of the migrations themselves use
 * `testDatabase`, an empty schema, and run them for real.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openStore } from '../store/db.js';
import { migrateToLatest } from '../store/migrations.js';
import { MIGRATIONS } from '../store/migrations/index.js';

/** The advisory lock under which a template is made, the same in every worker and run. */
const TEMPLATE_LOCK = 7_240_113_001;

/** How long a drop waits for the connections of a closed harness to end. */
const DROP_WAIT_MS = 5_000;

/**
 * The template's name: the same for the same migrations, so that the workers of a run, and runs
 * against a server of one's own, share one; a migration added or edited gets a new one.
 */
function templateName(): string {
  const hash = createHash('sha256');
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    hash.update(`${name}\n${migration.up.toString()}\n${migration.down?.toString() ?? ''}\n`);
  }
  return `gatehouse_template_${hash.digest('hex').slice(0, 16)}`;
}

/** `base` with its database replaced by `database`. */
function urlOf(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `work` on a connection of its own to `base`'s database, closed afterwards. */
async function withClient<T>(base: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The migrated template, made unless a finished one is there already (a database is marked a
 * template only once every migration ran in it). One worker makes it while the others wait on
 * the lock; a half-made one left by a run that stopped is made again.
 */
async function migratedTemplate(base: string): Promise<string> {
  const name = templateName();
  return withClient(base, async (admin) => {
    // Released with the session.
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const { rows } = await admin.query<{ datistemplate: boolean }>(
      'SELECT datistemplate FROM pg_database WHERE datname = $1',
      [name],
    );
    if (rows[0]?.datistemplate) return name;
    if (rows[0]) await admin.query(`DROP DATABASE ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const store = openStore(urlOf(base, name));
    try {
      await migrateToLatest(store.db, await store.migrationSchema());
    } finally {
      await store.close();
    }
    await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
    return name;
  });
}

/** What a worker keeps per server: its template, and a connection that makes the copies. */
interface Server {
  template: Promise<string>;
  admin: Promise<pg.Client> | undefined;
}

const SERVERS = Symbol.for('gatehouse.test.postgresServers');

/** The worker's state for the server at `base`, kept on `globalThis` (it outlives a file's modules). */
function serverAt(base: string): Server {
  const global = globalThis as { [SERVERS]?: Map<string, Server> };
  const servers = (global[SERVERS] ??= new Map<string, Server>());
  let server = servers.get(base);
  if (!server) {
    server = { template: migratedTemplate(base), admin: undefined };
    servers.set(base, server);
  }
  return server;
}

/**
 * The worker's connection to `base` that creates and drops the harnesses' databases: a new
 * connection costs the server tens of milliseconds of CPU, two of them for every harness. It does
 * not keep the worker alive, and a lost one is replaced on the next use.
 */
function adminOf(server: Server, base: string): Promise<pg.Client> {
  server.admin ??= (async () => {
    const client = new pg.Client({ connectionString: base });
    const lost = () => {
      server.admin = undefined;
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect().catch((error: unknown) => {
      lost();
      throw error;
    });
    (
      client as unknown as { connection?: { stream?: { unref?: () => void } } }
    ).connection?.stream?.unref?.();
    return client;
  })();
  return server.admin;
}

/**
 * A new database on the PostgreSQL server at `base`, every migration applied: a copy of the
 * migrated template (`STRATEGY FILE_COPY`: copying the files costs a fraction of writing them
 * to the log, for a database this small). `drop` removes it once its connections have ended.
 * The role needs CREATEDB.
 */
export async function templatedDatabase(
  base: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = serverAt(base);
  const template = await server.template;
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  await (
    await adminOf(server, base)
  ).query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  return {
    url: urlOf(base, name),
    async drop() {
      const admin = await adminOf(server, base);
      // A closed pool's connections may end a moment after it resolves; DROP DATABASE would
      // wait for them in steps of a tenth of a second, so this waits in shorter ones.
      const until = Date.now() + DROP_WAIT_MS;
      for (;;) {
        const { rows } = await admin.query<{ open: number }>(
          'SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]?.open === 0 || Date.now() > until) break;
        await sleep(5);
      }
      await admin.query(`DROP DATABASE ${name}`);
    },
  };
}
