// OAuth: each project's provider settings (client secret sealed) and the sign-ins sent to a
// provider (state hashed, our PKCE verifier sealed), answered at most once.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_providers')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('onetap_client_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_providers_pk', ['project_id', 'provider'])
    .execute();
  await db.schema
    .createTable('oauth_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier_encrypted', 'text', (c) => c.notNull())
    .addColumn('pkce_challenge', 'text')
    .addColumn('redirect_urls', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
}
