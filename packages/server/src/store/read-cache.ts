/** Hot reads remembered while the database is unchanged (SQLite), bounded, least recently used out. */
import type { Kysely } from 'kysely';
import { changeVersionOf } from './db.js';
import type { Database } from './schema.js';

interface Remembered<R> {
  /** The database's change version the rows were read at. */
  version: string;
  entries: Map<string, R[]>;
}

/**
 * A read of rows by key that is answered from memory while the database has not changed since it
 * was made: any statement of this process that could write, and any commit by another process,
 * forgets every remembered read at once (`changeVersionOf`), so an answer from memory is always
 * the answer the database would give now. PostgreSQL and transactions always read. At most
 * `maxEntries` keys are kept, the least recently used leaving first; empty results are not kept,
 * so that unknown keys cannot push out known ones.
 *
 * @example
 * const cached = rowsUntilChanged<Row>(1000);
 * const rows = await cached(db, tokenHash, () => byTokenHash(db, { tokenHash }));
 */
export function rowsUntilChanged<R>(
  maxEntries: number,
): (db: Kysely<Database>, key: string, read: () => Promise<R[]>) => Promise<R[]> {
  const byDatabase = new WeakMap<Kysely<Database>, Remembered<R>>();
  return async (db, key, read) => {
    const changeVersion = changeVersionOf(db);
    if (!changeVersion) return read();
    const version = changeVersion();
    let remembered = byDatabase.get(db);
    if (remembered?.version !== version) {
      remembered = { version, entries: new Map() };
      byDatabase.set(db, remembered);
    }
    const { entries } = remembered;
    const hit = entries.get(key);
    if (hit) {
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    }
    const rows = await read();
    // Kept only when nothing could have changed while it was read.
    if (rows.length > 0 && changeVersion() === version && byDatabase.get(db) === remembered) {
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, rows);
    }
    return rows;
  };
}
