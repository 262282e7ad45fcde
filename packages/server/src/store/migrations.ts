/** Schema migrations, kept in code so the built server carries them; they only ever add. */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';

// Every statement uses portable types so one migration set serves SQLite and PostgreSQL.
const initial: Migration = {
  async up(db: Kysely<unknown>) {
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
  },
};

// Passwords and multi-factor authentication.
const passwordsAndMfa: Migration = {
  async up(db: Kysely<unknown>) {
    // The project's password policy: none, zxcvbn or luds (with its two numbers).
    await db.schema
      .alterTable('projects')
      .addColumn('password_policy', 'text', (c) => c.notNull().defaultTo('zxcvbn'))
      .execute();
    await db.schema
      .alterTable('projects')
      .addColumn('luds_complexity', 'integer', (c) => c.notNull().defaultTo(3))
      .execute();
    await db.schema
      .alterTable('projects')
      .addColumn('luds_minimum_count', 'integer', (c) => c.notNull().defaultTo(8))
      .execute();

    await db.schema
      .createTable('passwords')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull().unique().references('members.id'))
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('totp_registrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
      .addColumn('secret_encrypted', 'text', (c) => c.notNull())
      .addColumn('last_used_step', 'integer')
      .addColumn('verified_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('totp_registrations_member')
      .on('totp_registrations')
      .column('member_id')
      .execute();

    await db.schema
      .createTable('recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
      .addColumn('totp_registration_id', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('recovery_codes_member')
      .on('recovery_codes')
      .column('member_id')
      .execute();

    await db.schema
      .createTable('otp_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
      .addColumn('phone_number', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('otp_codes_member').on('otp_codes').column('member_id').execute();
  },
};

// Failed password attempts per member, for the brute-force lockout.
const passwordLockouts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('password_failures')
      .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.id'))
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('window_start', 'text', (c) => c.notNull())
      .execute();
  },
};

// Recovery codes are shown again on request (GET /b2b/recovery_codes), so each keeps an encrypted
// copy beside the hash that recovery matches against.
const recoveryCodeCopies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('recovery_codes')
      .addColumn('code_encrypted', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};

// Progressive back-off of password guesses per e-mail and client IP, replacing the hard lockout
// (password_failures stays, unused: migrations only add); and finding reset links by address.
const passwordThrottle: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limit_backoffs')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('delay_seconds', 'integer', (c) => c.notNull())
      .addColumn('blocked_until', 'integer', (c) => c.notNull())
      .addColumn('last_attempt', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limit_backoffs_pk', ['scope', 'subject'])
      .execute();
    // A saved password voids the member's outstanding reset links, found by address.
    await db.schema.createIndex('tokens_email').on('tokens').column('email').execute();
  },
};

// Consecutive wrong second-factor codes per member and factor kind, across rate-limit windows;
// and the index the scheduled purge of old telemetry events deletes by.
const factorLockout: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('factor_failures')
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
      .addColumn('factor', 'text', (c) => c.notNull())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('factor_failures_pk', ['member_id', 'factor'])
      .execute();
    await db.schema.createIndex('events_created_at').on('events').column('created_at').execute();
  },
};

// SSO: SAML and OIDC connections per organization, their IdP signing certificates, the requests
// we sent to IdPs (InResponseTo, OIDC state), assertion IDs already used (replays, across
// instances), the organization's SSO settings, and a details column for SSO tokens.
const sso: Migration = {
  async up(db: Kysely<unknown>) {
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
  },
};

// OAuth: each project's provider settings (client secret sealed) and the sign-ins sent to a
// provider (state hashed, our PKCE verifier sealed), answered at most once.
const oauth: Migration = {
  async up(db: Kysely<unknown>) {
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
  },
};

// An OAuth sign-in returns only to the browser that started it: the hash of that browser's
// binding cookie. Rows from before have none and are refused at the callback.
const oauthBrowserBinding: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oauth_requests').addColumn('browser_hash', 'text').execute();
  },
};

// Signing keys rotate: a retired key stays published until the JWTs it signed have expired.
const signingKeyRotation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('signing_keys').addColumn('retired_at', 'text').execute();
  },
};

// A project may cap its sessions' lifetime below (or above) the server-wide default.
const projectSessionLifetime: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('projects')
      .addColumn('session_max_lifetime_minutes', 'integer')
      .execute();
  },
};

// A project may have the widget show a 'Powered by Gatehouse' line.
const projectWatermark: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('projects')
      .addColumn('display_watermark', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

// Custom RBAC: each project's own roles and resources (and extensions of the built-in roles) as
// one JSON document per project, and each organization's e-mail domain → role rules.
const rbacPolicies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rbac_policies')
      .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id'))
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('resources', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('rbac_email_implicit_role_assignments', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};

// A project may require a captcha token on D calls, verified with its provider (docs/protocol.md §7).
const captchaSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('captcha_settings')
      .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id'))
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('site_key', 'text', (c) => c.notNull())
      .addColumn('secret_encrypted', 'text')
      .addColumn('min_score', 'double precision', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

// The language a member last signed in with, for the messages the server sends later on its own.
const memberLocale: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('members').addColumn('locale', 'text').execute();
  },
};

// Federated sign-in trusts an address only where the provider vouches for it: the tenants an
// organization admits, each member's linked provider identities, what an IST's federated
// identity proved, and the browser an SSO sign-in must return to.
const federatedIdentities: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('organizations')
      .addColumn('oauth_tenant_jit_provisioning', 'text', (c) =>
        c.notNull().defaultTo('NOT_ALLOWED'),
      )
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
  },
};

const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_passwords_and_mfa': passwordsAndMfa,
  '0003_password_lockouts': passwordLockouts,
  '0004_recovery_code_copies': recoveryCodeCopies,
  '0005_password_throttle': passwordThrottle,
  '0006_factor_lockout': factorLockout,
  '0007_sso': sso,
  '0008_oauth': oauth,
  '0009_oauth_browser_binding': oauthBrowserBinding,
  '0010_signing_key_rotation': signingKeyRotation,
  '0011_project_session_lifetime': projectSessionLifetime,
  '0012_project_watermark': projectWatermark,
  '0013_rbac_policies': rbacPolicies,
  '0014_captcha_settings': captchaSettings,
  '0015_member_locale': memberLocale,
  '0016_federated_identities': federatedIdentities,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * The newest migration of the previous release. Upgrades are tested from its schema, with data
 * written the way that release wrote it (store/upgrade.test.ts).
 */
export const PREVIOUS_RELEASE_MIGRATION = '0008_oauth';

/**
 * Brings the database to the schema of one migration, for upgrade tests. Never used to go back:
 * migrations only add.
 *
 * @example
 * await migrateTo(db, PREVIOUS_RELEASE_MIGRATION);
 */
export async function migrateTo(
  db: Kysely<Database>,
  name: string,
  migrationTableSchema?: string,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
}

/**
 * Brings the database up to the latest schema. Safe to run on every start and from several
 * instances: Kysely's migrator takes a lock and skips what is already applied.
 *
 * @example
 * await migrateToLatest(store.db, await store.migrationSchema());
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  migrationTableSchema?: string,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations this server knows that the database has not applied: empty when the schema is
 * current. For readiness checks; it applies nothing.
 */
export async function pendingMigrations(
  db: Kysely<Database>,
  migrationTableSchema?: string,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  return (await migrator.getMigrations())
    .filter((m) => m.executedAt === undefined)
    .map((m) => m.name);
}
