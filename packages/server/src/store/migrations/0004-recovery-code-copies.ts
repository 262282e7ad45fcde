// Recovery codes are shown again on request (GET /b2b/recovery_codes), so each keeps an encrypted
// copy beside the hash that recovery matches against.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('recovery_codes')
    .addColumn('code_encrypted', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
