// When each member last completed a sign-in into their organization (docs/protocol.md §5,
// `last_sign_in_at`): kept on the member, since sessions are revoked and deleted, and null for
// members who have not signed in since.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('members').addColumn('last_sign_in_at', 'text').execute();
}
