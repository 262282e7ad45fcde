// Reads remembered while the database is unchanged: forgotten after any write of this connection
// or a commit by another, never kept inside a transaction or when nothing was found, bounded, and
// frozen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db.js';
import { readsUntilChanged } from './read-cache.js';

let dir: string;
let store: Store;
let other: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-read-cache-'));
  store = openStore(`sqlite:${join(dir, 'db.sqlite')}`);
  other = openStore(`sqlite:${join(dir, 'db.sqlite')}`);
  await sql`CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)`.execute(store.db);
  await sql`INSERT INTO t VALUES ('a', '1'), ('b', '1'), ('c', '1')`.execute(store.db);
});
afterAll(async () => {
  await store.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A remembered read of `t` by key that counts how often it reached the database. */
/** Resolves in the next turn of the event loop, after its check phase. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function counted(maxEntries = 10) {
  const remembered = readsUntilChanged<{ v: string }>(maxEntries);
  let reads = 0;
  const read = (db: Store['db'], key: string) =>
    remembered(db, key, async () => {
      reads++;
      const { rows } = await sql<{ v: string }>`SELECT v FROM t WHERE k = ${key}`.execute(db);
      return rows[0] ?? null;
    });
  return { read, reads: () => reads };
}

describe('rowsUntilChanged', () => {
  it('answers a repeated read from memory while nothing changes', async () => {
    const { read, reads } = counted();
    expect(await read(store.db, 'a')).toEqual({ v: '1' });
    const again = await read(store.db, 'a');
    expect(again).toEqual({ v: '1' });
    expect(reads()).toBe(1);
    expect(Object.isFrozen(again)).toBe(true);
  });

  it('reads again after a write of this connection', async () => {
    const { read, reads } = counted();
    await read(store.db, 'a');
    await sql`UPDATE t SET v = '2' WHERE k = 'a'`.execute(store.db);
    expect(await read(store.db, 'a')).toEqual({ v: '2' });
    expect(reads()).toBe(2);
  });

  it("of a table announced apart, outlives this connection's writes to others, not to it", async () => {
    await sql`CREATE TABLE captcha_settings (project_id TEXT PRIMARY KEY, v TEXT)`.execute(
      store.db,
    );
    await sql`INSERT INTO captcha_settings VALUES ('p', '1')`.execute(store.db);
    const remembered = readsUntilChanged<{ v: string }>(10, 'captcha_settings');
    let reads = 0;
    const read = () =>
      remembered(store.db, 'p', async () => {
        reads++;
        const { rows } = await sql<{ v: string }>`
          SELECT v FROM captcha_settings WHERE project_id = 'p'`.execute(store.db);
        return rows[0] ?? null;
      });
    await read();
    await sql`UPDATE t SET v = '5' WHERE k = 'c' RETURNING v`.execute(store.db);
    expect(await read()).toEqual({ v: '1' });
    expect(reads).toBe(1);
    await sql`UPDATE captcha_settings SET v = '2' RETURNING v`.execute(store.db);
    expect(await read()).toEqual({ v: '2' });
    await sql`UPDATE "captcha_settings" SET v = '3'`.execute(store.db);
    expect(await read()).toEqual({ v: '3' });
    await sql`UPDATE captcha_settings SET v = '4'`.execute(other.db);
    await nextTurn();
    expect(await read()).toEqual({ v: '4' });
    expect(reads).toBe(4);
  });

  it('reads again after a commit by another connection to the file, from the next turn', async () => {
    const { read, reads } = counted();
    await read(store.db, 'b');
    await sql`UPDATE t SET v = '3' WHERE k = 'b'`.execute(other.db);
    // Another process's commit is looked for once per turn of the event loop: a request that
    // arrives after the commit is handled in a later turn than the one that read the version.
    await nextTurn();
    expect(await read(store.db, 'b')).toEqual({ v: '3' });
    expect(reads()).toBe(2);
  });

  it('looks for other connections’ commits once per turn of the event loop', async () => {
    await sql`INSERT INTO t VALUES ('turn', '1')`.execute(store.db);
    const { read, reads } = counted();
    await read(store.db, 'turn');
    await sql`UPDATE t SET v = '7' WHERE k = 'turn'`.execute(other.db);
    // The same turn: still the answer from before the commit, as for a request already arrived.
    expect(await read(store.db, 'turn')).toEqual({ v: '1' });
    expect(reads()).toBe(1);
    await nextTurn();
    expect(await read(store.db, 'turn')).toEqual({ v: '7' });
    expect(reads()).toBe(2);
  });

  it('tells what it remembers without waiting, and nothing once the database changed', async () => {
    const remembered = readsUntilChanged<{ v: string }>(10);
    const read = (key: string) =>
      remembered(store.db, key, async () => {
        const { rows } = await sql<{ v: string }>`SELECT v FROM t WHERE k = ${key}`.execute(
          store.db,
        );
        return rows[0] ?? null;
      });
    await sql`INSERT INTO t VALUES ('peek', '1')`.execute(store.db);
    expect(remembered.remembered(store.db, 'peek')).toBeUndefined();
    const value = await read('peek');
    expect(remembered.remembered(store.db, 'peek')).toBe(value);
    await sql`UPDATE t SET v = '2' WHERE k = 'peek'`.execute(store.db);
    expect(remembered.remembered(store.db, 'peek')).toBeUndefined();
    expect(await read('peek')).toEqual({ v: '2' });
    await store.db.transaction().execute(async (trx) => {
      expect(remembered.remembered(trx, 'peek')).toBeUndefined();
    });
  });

  it('always reads inside a transaction, and keeps nothing read there', async () => {
    const { read, reads } = counted();
    await store.db.transaction().execute(async (trx) => {
      await read(trx, 'c');
      await read(trx, 'c');
    });
    expect(reads()).toBe(2);
    await read(store.db, 'c');
    expect(reads()).toBe(3);
  });

  it('does not keep a read that found nothing', async () => {
    const { read, reads } = counted();
    expect(await read(store.db, 'missing')).toBeNull();
    expect(await read(store.db, 'missing')).toBeNull();
    expect(reads()).toBe(2);
  });

  it('freezes what it keeps, nested objects too', async () => {
    const remembered = readsUntilChanged<{ inner: { list: number[] } }>(10);
    const value = await remembered(store.db, 'x', () => Promise.resolve({ inner: { list: [1] } }));
    expect(Object.isFrozen(value?.inner)).toBe(true);
    expect(() => value?.inner.list.push(2)).toThrow(TypeError);
  });

  it('keeps at most its bound, the least recently used leaving first', async () => {
    const { read, reads } = counted(2);
    await read(store.db, 'a');
    await read(store.db, 'b');
    await read(store.db, 'a'); // a is now the most recently used
    await read(store.db, 'c'); // b leaves
    expect(reads()).toBe(3);
    await read(store.db, 'a');
    await read(store.db, 'c');
    expect(reads()).toBe(3);
    await read(store.db, 'b');
    expect(reads()).toBe(4);
  });

  it('always reads through a handle without a change version (a reserved connection)', async () => {
    const { read, reads } = counted();
    await store.db.connection().execute(async (db) => {
      await read(db, 'a');
      await read(db, 'a');
    });
    expect(reads()).toBe(2);
  });
});
