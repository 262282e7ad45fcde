// SSO: SAML and OIDC connections per organization, their IdP signing certificates, the requests
// we sent to IdPs (InResponseTo, OIDC state), assertion IDs already used (replays, across
// instances), the organization's SSO settings, and a details column for SSO tokens.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('identity_provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sso_connections_organization')
    .on('sso_connections')
    .column('organization_id')
    .execute();
  await db.schema
    .createTable('sso_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id'))
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sso_certificates_connection')
    .on('sso_certificates')
    .column('connection_id')
    .execute();
  await db.schema
    .createTable('sso_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('state_hash', 'text', (c) => c.unique())
    .addColumn('nonce', 'text')
    .addColumn('code_verifier_encrypted', 'text')
    .addColumn('pkce_challenge', 'text')
    .addColumn('login_redirect_url', 'text', (c) => c.notNull())
    .addColumn('signup_redirect_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createTable('sso_assertions')
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_assertions_pk', ['connection_id', 'assertion_id'])
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('sso_active_connections', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('sso_default_connection_id', 'text')
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('sso_jit_provisioning', 'text', (c) => c.notNull().defaultTo('ALL_ALLOWED'))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('sso_jit_provisioning_allowed_connections', 'text', (c) =>
      c.notNull().defaultTo('[]'),
    )
    .execute();
  await db.schema.alterTable('tokens').addColumn('details', 'text').execute();
}
