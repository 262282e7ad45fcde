// The language a member last signed in with, for the messages the server sends later on its own.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('members').addColumn('locale', 'text').execute();
}
