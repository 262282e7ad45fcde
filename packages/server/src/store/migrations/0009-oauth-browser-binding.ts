// An OAuth sign-in returns only to the browser that started it: the hash of that browser's
// binding cookie. Rows from before have none and are refused at the callback.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_requests').addColumn('browser_hash', 'text').execute();
}
