/** Opens the database named by a `DATABASE_URL`; every dialect difference lives in this file. */
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import { listenForChanges, type ChangeNotices } from './change-notices.js';
import type { Database } from './schema.js';

/** The default location of the embedded database. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/gatehouse.db';

/** Where the data lives, parsed from a `DATABASE_URL`. */
export type DatabaseLocation =
  { kind: 'sqlite'; file: string | null } | { kind: 'postgres'; connectionString: string };

/**
 * Parses `sqlite:./path.db`, `sqlite:/abs/path.db`, `sqlite::memory:` and `postgres://…`
 * (or `postgresql://…`). Returns null for anything else.
 *
 * @example
 * parseDatabaseUrl('sqlite::memory:'); // { kind: 'sqlite', file: null }
 */
export function parseDatabaseUrl(url: string): DatabaseLocation | null {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { kind: 'postgres', connectionString: url };
  }
  if (!url.startsWith('sqlite:')) return null;
  const rest = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  if (rest === ':memory:') return { kind: 'sqlite', file: null };
  if (rest === '') return null;
  return { kind: 'sqlite', file: resolve(rest) };
}

/**
 * The tables whose commits are announced apart from the rest (migration
 * `0029_captcha_change_notices`), so that reads of one of them alone may be remembered across
 * writes to every other table (`changeVersionOf(db, table)`): read on every sign-in, written
 * rarely.
 */
const ANNOUNCED_APART = ['captcha_settings'] as const;

/** A table whose commits are announced on their own (see {@link changeVersionOf}). */
export type AnnouncedApart = (typeof ANNOUNCED_APART)[number];

/** The tables announced apart that a statement may write to, by its SQL text. */
function tablesWrittenBy(sqlText: string): AnnouncedApart[] {
  return ANNOUNCED_APART.filter((table) => sqlText.includes(table));
}

/** How the PostgreSQL connection pool is used at one moment (for the metrics). */
export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection, all being in use. */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

/** An open database and the facts about it other modules need. */
export interface Store {
  db: Kysely<Database>;
  location: DatabaseLocation;
  /**
   * The schema the migration bookkeeping tables live in: PostgreSQL's current schema (so
   * deployments in different schemas of one database never see each other's), none for SQLite.
   */
  migrationSchema(): Promise<string | undefined>;
  /**
   * The connection pool's use, for PostgreSQL; null for SQLite, which has one synchronous
   * connection and nothing that waits for it.
   */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

/**
 * Opens the database. SQLite runs in WAL mode with a busy timeout so a CLI and a running server
 * can share one file.
 *
 * @example
 * const store = openStore('sqlite:./data/gatehouse.db');
 */
export function openStore(url: string): Store {
  const location = parseDatabaseUrl(url);
  if (!location) {
    // Only the scheme: the rest of a database URL may carry its password.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
    throw new TypeError(
      `Unsupported DATABASE_URL: not sqlite:PATH, sqlite::memory: or postgres://… (${scheme ? `it starts with ${scheme}` : 'no scheme'})`,
    );
  }
  if (location.kind === 'postgres') {
    // Loaded only for PostgreSQL: a server on SQLite does not hold the driver (bench/RESULTS.md,
    // "Idle memory"). pg is CommonJS, so this stays synchronous.
    const { Client, Pool } = createRequire(import.meta.url)('pg') as typeof pg;
    const pool = new Pool({ connectionString: location.connectionString });
    const notices = listenForChanges(Client, location.connectionString);
    pool.on('connect', (client) => {
      routeQueries(client, notices);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    changeVersions.set(db, (table) => notices.version(table));
    const migrationSchema = async () => {
      const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
      return rows[0]?.schema;
    };
    const poolStats = (): PoolStats => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    });
    const close = async () => {
      await notices.close();
      await db.destroy();
    };
    return { db, location, migrationSchema, poolStats, close };
  }
  if (location.file) createPrivately(location.file);
  const sqlite = new SqliteDatabase(location.file ?? ':memory:');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  // In WAL mode NORMAL is still safe against application crashes and saves an fsync per commit.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const connection = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  changeVersions.set(db, connection.changeVersion);
  return {
    db,
    location,
    migrationSchema: async () => undefined,
    poolStats: () => null,
    close: () => db.destroy(),
  };
}

/** Names of the statements PostgreSQL keeps prepared on each connection, by SQL text. */
const statementNames = new Map<string, string>();

/**
 * Has PostgreSQL keep a statement parsed and planned on each connection after its first run
 * (a named prepared statement), instead of parsing and planning it on every call. For the hot
 * queries of `preparedQuery`, whose SQL text never changes. Only statements that name their
 * result columns qualify: a `*` would make a statement prepared before a migration added a
 * column fail on every later run ("cached plan must not change result type"). SQLite keeps its
 * statements anyway (see `withStatementCache`).
 *
 * @example
 * prepareOnServer('select "id" from "sessions" where "id" = $1');
 */
export function prepareOnServer(sqlText: string): void {
  if (!statementNames.has(sqlText)) {
    statementNames.set(sqlText, `gatehouse_${statementNames.size + 1}`);
  }
}

/**
 * Routes a new pool connection's queries of {@link prepareOnServer} through their names, and
 * counts every statement that could write (anything but a `select`: writes, `begin`, `commit`)
 * as a change of this process, before it is sent and again once answered, so that a read
 * overlapping it is never remembered (see {@link changeVersionOf}). A write to a table announced
 * apart counts as a change of that table too, and so does the `commit` or `rollback` that ends
 * it on this connection: a read between the write and its commit still sees the old row.
 */
function routeQueries(client: pg.PoolClient, notices: ChangeNotices): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  /** Tables announced apart written on this connection since its last `commit` or `rollback`. */
  const uncommitted = new Set<AnnouncedApart>();
  // Kysely calls `query(text, values)`, or `query(cursor)` when streaming.
  client.query = ((text: unknown, values?: unknown[]) => {
    const sqlText = typeof text === 'string' ? text : undefined;
    const name = sqlText === undefined ? undefined : statementNames.get(sqlText);
    const run = () =>
      name === undefined
        ? query(text, values)
        : query({ name, text: sqlText, values: values ?? [] });
    sent++;
    if (sqlText !== undefined && /^\s*select\b/i.test(sqlText)) return run();
    const tables = sqlText === undefined ? [] : tablesWrittenBy(sqlText);
    for (const table of tables) uncommitted.add(table);
    if (sqlText !== undefined && /^\s*(commit|rollback)\b/i.test(sqlText)) {
      tables.push(...uncommitted);
      uncommitted.clear();
    }
    const wrote = () => {
      notices.wrote();
      for (const table of tables) notices.wrote(table);
    };
    wrote();
    const result = run();
    // A cursor (streaming) is not a promise; nothing here streams a write.
    if (result instanceof Promise) void result.finally(wrote).catch(() => undefined);
    return result;
  }) as typeof client.query;
}

/**
 * Creates the database file readable by this user only (0600), and its folder (0700) when it is
 * new. SQLite gives the WAL and shared-memory files the mode of the database file, so they are
 * private too. An existing file keeps the mode its owner chose.
 */
function createPrivately(file: string): void {
  if (existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // 'a' creates without truncating, so a file made by a concurrent process in between survives.
  closeSync(openSync(file, 'a', 0o600));
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; SQLite's prepare is a large share of a short query's cost, so
 * statements are kept by SQL text (bounded, oldest out first). Safe because Kysely runs each
 * statement to completion before the next call, and never streams here.
 *
 * Every statement Kysely runs passes through `prepare`, so it also counts the ones that may write
 * (anything but a read that writes nothing: writes, `returning` ones included, `begin`, `commit`),
 * for {@link changeVersionOf}.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  // Changes committed by other connections (another process: the CLI, a second server), read
  // once per turn of the event loop: every request a turn handles had arrived when the turn
  // began, before the read, so a commit that ended before a request was sent is seen by it
  // (docs/security.md, "Sessions end when they should"). Each read takes and drops SQLite's
  // shared lock, two system calls: a busy server handles dozens of checks per turn.
  const pragma = sqlite.prepare('PRAGMA data_version').pluck();
  let turnVersion: unknown;
  const forgetTurnVersion = () => {
    turnVersion = undefined;
  };
  const dataVersion = () => {
    if (turnVersion === undefined) {
      turnVersion = pragma.get();
      setImmediate(forgetTurnVersion);
    }
    return turnVersion;
  };
  let writes = 0;
  let lastVersion: unknown;
  let lastWrites = -1;
  let lastText = '';
  const tableWrites = new Map<AnnouncedApart, number>();
  return {
    close: () => sqlite.close(),
    prepare: (query: string) => {
      let statement = statements.get(query);
      if (!statement) {
        statement = sqlite.prepare(query);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next();
          if (!oldest.done) statements.delete(oldest.value);
        }
        statements.set(query, statement);
      }
      sent++;
      // Counted before it runs: a read that overlaps it never sees the count it started with.
      // Only a statement that reads and never writes is left out: a write with `returning` reads
      // too (`reader`), and `begin` and `commit` write nothing (`readonly`) but end or open what
      // a read sees. One connection runs one statement or transaction at a time, so no read of
      // this process falls between a write and its commit.
      if (!statement.reader || !statement.readonly) {
        writes++;
        for (const table of tablesWrittenBy(query)) {
          tableWrites.set(table, (tableWrites.get(table) ?? 0) + 1);
        }
      }
      return statement;
    },
    changeVersion: (table?: AnnouncedApart) => {
      const version = dataVersion();
      if (table !== undefined) return `${String(version)}:${tableWrites.get(table) ?? 0}`;
      // Every check asks; the text changes only with a commit, so it is made once per change.
      if (version !== lastVersion || writes !== lastWrites) {
        lastVersion = version;
        lastWrites = writes;
        lastText = `${String(version)}:${writes}`;
      }
      return lastText;
    },
  };
}

/** Statements sent by this process (see {@link statementsSent}). */
let sent = 0;

/**
 * How many statements this process has sent to its databases, of every engine, since it started:
 * each query, write, `begin` and `commit` counts once (SQLite's own `PRAGMA data_version` reads do
 * not). For tests and benchmarks that count what one request costs.
 *
 * @example
 * const before = statementsSent();
 * await signIn();
 * const cost = statementsSent() - before;
 */
export function statementsSent(): number {
  return sent;
}

/** The change versions of the databases this process opened (see {@link changeVersionOf}). */
const changeVersions = new WeakMap<Kysely<Database>, (table?: AnnouncedApart) => string | null>();

/**
 * A function whose answer changes whenever the database may have changed: a statement of this
 * process that could write, or a commit by any other connection. On SQLite the latter is
 * `PRAGMA data_version`, which sees other processes on the file; on PostgreSQL it is a notice
 * from the change triggers (`store/change-notices.ts`), and the function answers null while
 * those cannot be heard (not listening yet, the connection dropped, its own notices late), when
 * nothing may be remembered. Reads remembered with the version they were made at stay true while
 * it is the same. Null (no function) for a transaction: its reads may be rolled back.
 *
 * With `table`, one whose commits are announced apart, the version moves only with writes that
 * may change that table: this process's, by their SQL text, and other connections' (on SQLite any
 * commit to the file still moves it; on PostgreSQL only the notices naming the table do).
 *
 * @example
 * const version = changeVersionOf(ctx.db)?.(); // '3:1042'
 * const captcha = changeVersionOf(ctx.db, 'captcha_settings')?.(); // '3:2'
 */
export function changeVersionOf(
  db: Kysely<Database>,
  table?: AnnouncedApart,
): (() => string | null) | null {
  const version = changeVersions.get(db);
  if (!version) return null;
  return table === undefined ? version : () => version(table);
}
