// A project may have the widget show a 'Powered by Gatehouse' line.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('display_watermark', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
