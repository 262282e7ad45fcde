// Signing keys rotate: a retired key stays published until the JWTs it signed have expired.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signing_keys').addColumn('retired_at', 'text').execute();
}
