// Federated sign-in trusts an address only where the provider vouches for it: the tenants an
// organization admits, each member's linked provider identities, what an IST's federated
// identity proved, and the browser an SSO sign-in must return to.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('oauth_tenant_jit_provisioning', 'text', (c) => c.notNull().defaultTo('NOT_ALLOWED'))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('allowed_oauth_tenants', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('intermediate_sessions').addColumn('federated', 'text').execute();
  await db.schema.alterTable('sso_requests').addColumn('browser_hash', 'text').execute();
  await db.schema
    .createTable('member_federated_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .execute();
  // One identity is one member of an organization; one member has one identity per provider.
  await db.schema
    .createIndex('member_federated_identities_subject')
    .on('member_federated_identities')
    .columns(['organization_id', 'provider', 'issuer', 'subject'])
    .unique()
    .execute();
  await db.schema
    .createIndex('member_federated_identities_member')
    .on('member_federated_identities')
    .columns(['member_id', 'provider'])
    .unique()
    .execute();
}
