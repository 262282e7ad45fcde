// Test sign-ins of an SSO connection (docs/protocol.md §7.10): an admin's AuthnRequest is a row
// of sso_requests marked by the member who started it, and the IdP's answer is stored as a
// report of its checks instead of signing anyone in.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_requests').addColumn('test_member_id', 'text').execute();
  await db.schema.alterTable('sso_requests').addColumn('test_report', 'text').execute();
}
