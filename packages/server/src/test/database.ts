/**
 * The databases of the tests: an empty one (`testDatabase`, for the migrations' own tests) and a
 * harness's, every migration applied and its signing key stored, made from what a test worker
 * makes once and shares (a migrated template, one RSA key pair).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { parseServerKey, SecretBox } from '../crypto/secret-box.js';
import { openStore } from '../store/db.js';
import { migrateToLatest } from '../store/migrations.js';
import type { Database } from '../store/schema.js';
import { templatedDatabase } from './postgres-template.js';

/**
 * An empty database, no migration applied: a SQLite file in the temp folder, or, when
 * `TEST_DATABASE_URL` names a PostgreSQL server, a fresh schema there (dropped at the end), so
 * the same suite runs against both dialects. Tests of the migrations start from it; a harness
 * starts from a migrated copy (`harnessDatabase`).
 */
export async function testDatabase(
  dir: string,
): Promise<{ url: string; serverKey?: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { url: `sqlite:${join(dir, 'gatehouse.db')}`, drop: async () => undefined };
  const schema = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    serverKey: randomBytes(32).toString('hex'),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/**
 * What every harness of one test worker shares, made on first use: a SQLite database with every
 * migration applied (each harness starts from a copy of it), and one RSA key pair (each harness
 * stores it as its first signing key, under a kid of its own, sealed with its own server key).
 * Kept on `globalThis`, which outlives the per-file module graph of the worker.
 */
interface WorkerFixtures {
  /** The migrated template database file. */
  template: Promise<string>;
  signingKey: Promise<{ pkcs8: string; publicJwk: JWK }>;
}

const WORKER_FIXTURES = Symbol.for('gatehouse.test.workerFixtures');

function workerFixtures(): WorkerFixtures {
  const global = globalThis as { [WORKER_FIXTURES]?: WorkerFixtures };
  global[WORKER_FIXTURES] ??= { template: migratedTemplate(), signingKey: signingKeyPair() };
  return global[WORKER_FIXTURES];
}

async function migratedTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-template-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'template.db');
  const store = openStore(`sqlite:${file}`);
  try {
    await migrateToLatest(store.db);
    // One self-contained file to copy: no write-ahead log beside it.
    await sql`PRAGMA journal_mode = DELETE`.execute(store.db);
  } finally {
    await store.close();
  }
  return file;
}

async function signingKeyPair(): Promise<{ pkcs8: string; publicJwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { pkcs8: await exportPKCS8(privateKey), publicJwk: await exportJWK(publicKey) };
}

/**
 * The database of a harness, every migration applied: a copy of the worker's migrated SQLite
 * template in the temp folder, or, when `TEST_DATABASE_URL` names a PostgreSQL server, a new
 * database there copied from its migrated template (dropped at the end).
 */
export async function harnessDatabase(
  dir: string,
): Promise<{ url: string; serverKey?: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (base)
    return { ...(await templatedDatabase(base)), serverKey: randomBytes(32).toString('hex') };
  const database = await testDatabase(dir);
  copyFileSync(await workerFixtures().template, database.url.slice('sqlite:'.length));
  return database;
}

/**
 * Stores the worker's key pair as the active signing key of the harness's database before its
 * server starts, as a first start would have made one.
 */
export async function storeSigningKey(
  db: Kysely<Database>,
  serverKey: string,
  now: number,
): Promise<void> {
  const { pkcs8, publicJwk } = await workerFixtures().signingKey;
  const kid = randomUUID();
  await db
    .insertInto('signing_keys')
    .values({
      id: kid,
      algorithm: 'RS256',
      public_jwk: JSON.stringify({ ...publicJwk, kid, alg: 'RS256', use: 'sig' }),
      private_key: new SecretBox(parseServerKey(serverKey)).seal(pkcs8),
      active: 1,
      created_at: new Date(now).toISOString(),
      retired_at: null,
    })
    .execute();
}
