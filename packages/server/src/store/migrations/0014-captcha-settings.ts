// A project may require a captcha token on D calls, verified with its provider (docs/protocol.md §7).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('captcha_settings')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('site_key', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text')
    .addColumn('min_score', 'double precision', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
