/** Prepared queries on a real SQLite file: parameters (strings, numbers, nulls) rebound per call, constants kept, in and out of transactions. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db.js';
import { migrateToLatest } from './migrations.js';
import { preparedQuery } from './prepared.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-prepared-'));
let store: Store;

beforeAll(async () => {
  store = openStore(`sqlite:${join(dir, 'p.db')}`);
  await migrateToLatest(store.db);
  for (const [id, active] of [
    ['key-a', 1],
    ['key-b', 0],
    ['key-c', 1],
  ] as const) {
    await store.db
      .insertInto('signing_keys')
      .values({
        id,
        algorithm: 'RS256',
        public_jwk: `{"kid":"${id}"}`,
        private_key: 'sealed',
        active,
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
  }
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

// `active = 1` is a constant of the query: it must survive the rebinding of `id`.
const activeKeyById = preparedQuery((db, p: { id: string }) =>
  db.selectFrom('signing_keys').select('id').where('id', '=', p.id).where('active', '=', 1),
);
const setJwk = preparedQuery((db, p: { id: string; jwk: string }) =>
  db.updateTable('signing_keys').set({ public_jwk: p.jwk }).where('id', '=', p.id),
);

describe('preparedQuery', () => {
  it('binds each call its own parameters and keeps the constants', async () => {
    expect(await activeKeyById(store.db, { id: 'key-a' })).toEqual([{ id: 'key-a' }]);
    expect(await activeKeyById(store.db, { id: 'key-c' })).toEqual([{ id: 'key-c' }]);
    expect(await activeKeyById(store.db, { id: 'key-b' })).toEqual([]);
    expect(await activeKeyById(store.db, { id: 'missing' })).toEqual([]);
  });

  it('binds parameters by name whatever their order in the SQL', async () => {
    await setJwk(store.db, { jwk: '{"kid":"new"}', id: 'key-b' });
    const rows = await store.db.selectFrom('signing_keys').select(['id', 'public_jwk']).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.public_jwk]))).toEqual({
      'key-a': '{"kid":"key-a"}',
      'key-b': '{"kid":"new"}',
      'key-c': '{"kid":"key-c"}',
    });
  });

  it('runs inside a transaction, whose rollback undoes its writes', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await setJwk(trx, { id: 'key-a', jwk: 'rolled back' });
        expect(await activeKeyById(trx, { id: 'key-a' })).toEqual([{ id: 'key-a' }]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const row = await store.db
      .selectFrom('signing_keys')
      .select('public_jwk')
      .where('id', '=', 'key-a')
      .executeTakeFirstOrThrow();
    expect(row.public_jwk).toBe('{"kid":"key-a"}');
  });

  it('binds numbers and nulls as themselves, not as the placeholder strings it was built with', async () => {
    // better-sqlite3 binds every JavaScript number as a REAL.
    const kinds = preparedQuery((db, p: { n: number; missing: string | null; id: string }) =>
      db
        .selectFrom('signing_keys')
        .select([
          sql<string>`typeof(${p.n})`.as('n_type'),
          sql<number>`${p.n} * 2`.as('doubled'),
          sql<string>`typeof(${p.missing})`.as('missing_type'),
        ])
        .where('id', '=', p.id),
    );
    expect(await kinds(store.db, { n: 21, missing: null, id: 'key-a' })).toEqual([
      { n_type: 'real', doubled: 42, missing_type: 'null' },
    ]);
    expect(await kinds(store.db, { n: 2.5, missing: 'x', id: 'key-a' })).toEqual([
      { n_type: 'real', doubled: 5, missing_type: 'text' },
    ]);
  });

  it('refuses a query that leaves a parameter unbound', async () => {
    const careless = preparedQuery((db, _p: { id: string }) =>
      db.selectFrom('signing_keys').select('id'),
    );
    await expect(careless(store.db, { id: 'key-a' })).rejects.toThrow(/parameter id/);
  });
});
