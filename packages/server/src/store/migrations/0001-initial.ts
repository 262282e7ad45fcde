// The first schema: projects and their secrets, organizations and their domains, members and their
// roles, sessions, one-time tokens, the outbox, events, rate-limit counters and signing keys.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('public_token', 'text', (c) => c.notNull().unique())
    .addColumn('create_organization_enabled', 'integer', (c) => c.notNull())
    .addColumn('authorized_origins', 'text', (c) => c.notNull())
    .addColumn('redirect_urls', 'text', (c) => c.notNull())
    .addColumn('slug_pattern', 'text')
    .addColumn('pkce_required', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('secrets_project').on('secrets').column('project_id').execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text', (c) => c.notNull())
    .addColumn('email_jit_provisioning', 'text', (c) => c.notNull())
    .addColumn('email_allowed_domains', 'text', (c) => c.notNull())
    .addColumn('auth_methods', 'text', (c) => c.notNull())
    .addColumn('allowed_auth_methods', 'text', (c) => c.notNull())
    .addColumn('mfa_policy', 'text', (c) => c.notNull())
    .addColumn('mfa_methods', 'text', (c) => c.notNull())
    .addColumn('allowed_mfa_methods', 'text', (c) => c.notNull())
    .addColumn('trusted_metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('organizations_project_slug', ['project_id', 'slug'])
    .execute();

  await db.schema
    .createTable('organization_domains')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_domains_pk', ['organization_id', 'domain'])
    .execute();
  await db.schema
    .createIndex('organization_domains_lookup')
    .on('organization_domains')
    .columns(['project_id', 'domain'])
    .execute();

  await db.schema
    .createTable('members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_id', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('password_id', 'text', (c) => c.notNull())
    .addColumn('mfa_enrolled', 'integer', (c) => c.notNull())
    .addColumn('mfa_phone_number', 'text', (c) => c.notNull())
    .addColumn('mfa_phone_verified', 'integer', (c) => c.notNull())
    .addColumn('totp_registration_id', 'text', (c) => c.notNull())
    .addColumn('default_mfa_method', 'text', (c) => c.notNull())
    .addColumn('trusted_metadata', 'text', (c) => c.notNull())
    .addColumn('untrusted_metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('members_organization_email', ['organization_id', 'email'])
    .execute();
  await db.schema
    .createIndex('members_project_email')
    .on('members')
    .columns(['project_id', 'email'])
    .execute();

  await db.schema
    .createTable('member_roles')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_roles_pk', ['member_id', 'role_id', 'source_type'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('factors', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_accessed_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('intermediate_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('factors', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('pkce_challenge', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('links', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_created').on('outbox').column('created_at').execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
