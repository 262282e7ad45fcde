/** Unique-constraint violations, recognised the same way on SQLite and PostgreSQL. */
import { sql } from 'kysely';
import type { Db } from './schema.js';

// better-sqlite3 reports SQLite's extended result code; node-postgres reports the SQLSTATE.
const UNIQUE_VIOLATION_CODES: ReadonlySet<string> = new Set([
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  '23505',
]);

/**
 * Whether a database error is a unique (or primary key) violation, on either dialect.
 *
 * @example
 * try { await insert(); } catch (error) { if (!isUniqueViolation(error)) throw error; }
 */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    UNIQUE_VIOLATION_CODES.has(error.code)
  );
}

/**
 * Runs one insert and answers false, instead of throwing, when it breaks a unique constraint.
 * A check before the insert cannot see a row that a concurrent transaction has not committed
 * yet, so the constraint is the real arbiter and its violation an expected outcome. Inside a
 * transaction the insert runs under a savepoint: PostgreSQL refuses every later statement of a
 * transaction in which one failed, and rolling back to the savepoint keeps the rest usable.
 *
 * @example
 * const inserted = await insertUnlessDuplicate(trx, (db) =>
 *   db.insertInto('organizations').values(row).execute(),
 * );
 * if (!inserted) return 'slug_taken';
 */
export async function insertUnlessDuplicate(
  db: Db,
  insert: (db: Db) => Promise<unknown>,
): Promise<boolean> {
  if (!db.isTransaction) {
    try {
      await insert(db);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
  await sql`SAVEPOINT insert_unless_duplicate`.execute(db);
  try {
    await insert(db);
  } catch (error) {
    // Any other error aborts the whole transaction anyway: only a duplicate is recovered from.
    if (!isUniqueViolation(error)) throw error;
    await sql`ROLLBACK TO SAVEPOINT insert_unless_duplicate`.execute(db);
    await sql`RELEASE SAVEPOINT insert_unless_duplicate`.execute(db);
    return false;
  }
  await sql`RELEASE SAVEPOINT insert_unless_duplicate`.execute(db);
  return true;
}
