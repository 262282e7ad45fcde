// Consecutive wrong second-factor codes per member and factor kind, across rate-limit windows;
// and the index the scheduled purge of old telemetry events deletes by.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('factor_failures')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('factor', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('factor_failures_pk', ['member_id', 'factor'])
    .execute();
  await db.schema.createIndex('events_created_at').on('events').column('created_at').execute();
}
