/** The management product's store: a project's secret keys (only their SHA-256 hashes). */
import { isoAt, type Db } from '../../context.js';
import type { SecretsTable } from '../../store/schema.js';

/** A stored secret key: its id, hash and creation time. */
export interface SecretRow {
  id: string;
  secret_hash: string;
  created_at: string;
}

/** The project's secret keys, oldest first. */
export async function secretRows(db: Db, projectId: string): Promise<SecretRow[]> {
  return db
    .selectFrom('secrets')
    .select(['id', 'secret_hash', 'created_at'])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Locks the project's row until the transaction ends, so that changes to its set of keys run one
 * at a time on every instance (PostgreSQL row lock; SQLite's single writer).
 */
export async function lockProject(trx: Db, projectId: string, now: number): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ updated_at: isoAt(now) })
    .where('id', '=', projectId)
    .execute();
}

/** Stores a new secret key (its hash). */
export async function insertSecret(db: Db, row: SecretsTable): Promise<void> {
  await db.insertInto('secrets').values(row).execute();
}

/**
 * Deletes one of the project's secret keys, but only while the project keeps another one (the
 * condition is part of the statement); whether it deleted it.
 */
export async function deleteSecretUnlessLast(
  db: Db,
  projectId: string,
  secretId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('secrets')
    .where('id', '=', secretId)
    .where('project_id', '=', projectId)
    .where((eb) =>
      eb(
        eb
          .selectFrom('secrets as others')
          .select((o) => o.fn.countAll().as('n'))
          .where('others.project_id', '=', projectId)
          .where('others.id', '!=', secretId),
        '>',
        0,
      ),
    )
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}
