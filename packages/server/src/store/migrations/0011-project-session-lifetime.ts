// A project may cap its sessions' lifetime below (or above) the server-wide default.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('session_max_lifetime_minutes', 'integer')
    .execute();
}
