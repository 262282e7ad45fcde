// The browser a session was started from (its IP address and user agent), so members and admins
// can tell their sessions apart and end one they do not recognise (docs/protocol.md §7.10).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('ip_address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
}
