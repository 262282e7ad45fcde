// A password the project has required be reset (`passwords.email.requireReset`): it signs in no
// more, even when right, until a new password replaces it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('passwords')
    .addColumn('reset_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
