// Failed password attempts per member, for the brute-force lockout.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_failures')
    .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.id'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .execute();
}
