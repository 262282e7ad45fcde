// An organization's own limit on its members' sessions (docs/protocol.md §5,
// `session_max_duration_minutes`): minutes from a session's start, null for none, so that every
// existing organization keeps the project's absolute lifetime alone.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('session_max_duration_minutes', 'integer')
    .execute();
}
