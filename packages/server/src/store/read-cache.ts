/** Hot reads remembered while the database is unchanged, bounded, least recently used out. */
import type { Kysely } from 'kysely';
import { changeVersionOf, type AnnouncedApart } from './db.js';
import type { Database } from './schema.js';

interface Remembered<V> {
  /** The database's change version the values were read at. */
  version: string;
  entries: Map<string, V>;
}

/**
 * A read by key that is answered from memory while the database has not changed since it was
 * made: any statement of this process that could write, and any commit by another process,
 * forgets every remembered read at once (`changeVersionOf`), so an answer from memory is always
 * the answer the database would give now. On PostgreSQL, commits of other instances are heard as
 * notices (`store/change-notices.ts`): while those cannot be heard, and in transactions, every
 * call reads. At most
 * `maxEntries` keys are kept, the least recently used leaving first; null (nothing found) is not
 * kept, so that unknown keys cannot push out known ones. What is kept is frozen, deeply, so no
 * caller can change what the next one is given.
 *
 * With `table`, a table whose commits are announced apart that the read alone reads, only a
 * change that may touch that table forgets (`changeVersionOf(db, table)`): writes to every other
 * table, such as each sign-in's own, leave it remembered.
 *
 * @example
 * const cached = readsUntilChanged<SessionWithOwner>(1000);
 * const found = await cached(db, tokenHash, () => lookUp(db, tokenHash));
 */
export function readsUntilChanged<V extends object>(
  maxEntries: number,
  table?: AnnouncedApart,
): RememberedReads<V> {
  const byDatabase = new WeakMap<Kysely<Database>, Remembered<V>>();
  /** The entries valid now, or null when nothing may be remembered (see above). */
  const current = (db: Kysely<Database>) => {
    const changeVersion = changeVersionOf(db, table);
    if (!changeVersion) return null;
    const version = changeVersion();
    if (version === null) return null;
    let remembered = byDatabase.get(db);
    if (remembered?.version !== version) {
      remembered = { version, entries: new Map() };
      byDatabase.set(db, remembered);
    }
    return { remembered, changeVersion };
  };
  const hitOf = (entries: Map<string, V>, key: string) => {
    const hit = entries.get(key);
    if (hit) {
      entries.delete(key);
      entries.set(key, hit);
    }
    return hit;
  };
  const read: RememberedReads<V> = async (db, key, readNow) => {
    const now = current(db);
    if (!now) return readNow();
    const { remembered, changeVersion } = now;
    const { entries } = remembered;
    const hit = hitOf(entries, key);
    if (hit) return hit;
    const value = await readNow();
    // Kept only when nothing could have changed while it was read.
    if (
      value !== null &&
      changeVersion() === remembered.version &&
      byDatabase.get(db) === remembered
    ) {
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, deepFreeze(value));
    }
    return value;
  };
  read.remembered = (db, key) => {
    const now = current(db);
    return now ? hitOf(now.remembered.entries, key) : undefined;
  };
  return read;
}

/** A read remembered while the database is unchanged: see {@link readsUntilChanged}. */
export interface RememberedReads<V> {
  (db: Kysely<Database>, key: string, read: () => Promise<V | null>): Promise<V | null>;
  /**
   * The value remembered for `key` and still true now, without waiting; undefined when it must
   * be read (then call the function itself).
   */
  remembered(db: Kysely<Database>, key: string): V | undefined;
}

/** Every object {@link deepFreeze} froze, with everything inside it. */
const deeplyFrozen = new WeakSet<object>();

/**
 * Freezes a value and every object inside it, and marks them so (see {@link isDeeplyFrozen}).
 *
 * @example
 * const session = deepFreeze(toMemberSession(row, member, slug));
 */
export function deepFreeze<T extends object>(value: T): T {
  const pending: object[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    Object.freeze(next);
    deeplyFrozen.add(next);
    for (const item of Object.values(next) as unknown[]) {
      if (typeof item === 'object' && item !== null && !deeplyFrozen.has(item)) pending.push(item);
    }
  }
  return value;
}

/**
 * Whether a value is a remembered read or part of one: frozen with everything inside it, so its
 * serialization can never change (`http/answer-json.ts` reuses it).
 *
 * @example
 * if (isDeeplyFrozen(member)) json = remembered.get(member);
 */
export function isDeeplyFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}
