/** Table types of the Gatehouse database (portable column types only), its handle and timestamps. */
import type { Generated, Kysely } from 'kysely';

/** Timestamps are RFC 3339 UTC strings of fixed width, so they compare correctly as text. */
type Timestamp = string;
/** Booleans are stored as 0/1 integers, which SQLite and PostgreSQL both read back as numbers. */
type Flag = number;
/** JSON documents are stored as text and parsed by the service that owns them. */
type Json = string;

export interface ProjectsTable {
  id: string;
  name: string;
  environment: 'test' | 'live';
  public_token: string;
  create_organization_enabled: Flag;
  authorized_origins: Json;
  redirect_urls: Json;
  slug_pattern: string | null;
  pkce_required: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** `none`, `zxcvbn` or `luds`. */
  password_policy: 'none' | 'zxcvbn' | 'luds';
  luds_complexity: number;
  luds_minimum_count: number;
  /** The absolute lifetime of this project's sessions in minutes; null for the server's. */
  session_max_lifetime_minutes: number | null;
  /**
   * Whether the widget shows its 'Powered by Gatehouse' line (bootstrap's watermark flag). The
   * column defaults to 0 and is never null; optional here so inserts may leave it out.
   */
  display_watermark: Flag | null;
}

export interface SecretsTable {
  id: string;
  project_id: string;
  secret_hash: string;
  created_at: Timestamp;
}

export interface OrganizationsTable {
  id: string;
  project_id: string;
  slug: string;
  name: string;
  logo_url: string;
  email_jit_provisioning: string;
  email_allowed_domains: Json;
  auth_methods: string;
  allowed_auth_methods: Json;
  mfa_policy: string;
  mfa_methods: string;
  allowed_mfa_methods: Json;
  trusted_metadata: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** `[{connection_id, display_name}]`, kept in step with `sso_connections` by the SSO product. */
  sso_active_connections: Json;
  sso_default_connection_id: string | null;
  sso_jit_provisioning: string;
  sso_jit_provisioning_allowed_connections: Json;
  /**
   * `[{domain, role_id}]`: roles granted by e-mail domain (source `email_assignment`). Optional
   * so that rows are written without it, as the schema before it had none; reads default to `[]`.
   */
  rbac_email_implicit_role_assignments?: Json;
  /** `RESTRICTED` lets members of `allowed_oauth_tenants` join; `NOT_ALLOWED` by default. */
  oauth_tenant_jit_provisioning?: string;
  /** `{google?: [hd…], microsoft?: [tid…]}`: the provider tenants the organization trusts. */
  allowed_oauth_tenants?: Json;
}

/** A project's own RBAC roles and resources; the built-in ones are in code (products/rbac). */
export interface RbacPoliciesTable {
  project_id: string;
  /** `[{role_id, description, permissions}]`, including extensions of `member` and `admin`. */
  roles: Json;
  /** `[{resource_id, description, actions}]`, custom resources only. */
  resources: Json;
  updated_at: Timestamp;
}

export interface OrganizationDomainsTable {
  project_id: string;
  organization_id: string;
  domain: string;
}

export interface MembersTable {
  id: string;
  project_id: string;
  organization_id: string;
  email: string;
  email_id: string;
  email_verified: Flag;
  name: string;
  status: string;
  password_id: string;
  mfa_enrolled: Flag;
  mfa_phone_number: string;
  mfa_phone_verified: Flag;
  totp_registration_id: string;
  default_mfa_method: string;
  trusted_metadata: Json;
  untrusted_metadata: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * The BCP 47 tag of the member's last sign-in that carried one (docs/protocol.md §7). Optional
   * so that rows are written alike before and after migration 0013.
   */
  locale?: string | null;
}

export interface MemberRolesTable {
  member_id: string;
  role_id: string;
  source_type: string;
}

export interface SessionsTable {
  id: string;
  project_id: string;
  member_id: string;
  organization_id: string;
  token_hash: string;
  factors: Json;
  started_at: Timestamp;
  last_accessed_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface IntermediateSessionsTable {
  id: string;
  project_id: string;
  token_hash: string;
  email: string;
  member_id: string | null;
  organization_id: string | null;
  factors: Json;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** What a federated provider said of the address, when the IST came from one; else null. */
  federated?: Json | null;
}

/** One-time tokens carried by links (magic links, discovery links). */
export interface TokensTable {
  id: string;
  project_id: string;
  kind: string;
  token_hash: string;
  email: string;
  organization_id: string | null;
  pkce_challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** Kind-specific JSON (an SSO token's connection), or null. */
  details?: string | null;
}

export interface OutboxTable {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: Json;
  created_at: Timestamp;
}

export interface EventsTable {
  id: string;
  project_id: string;
  event_name: string;
  payload: Json;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  /** Start of the current fixed window, in whole seconds since the epoch. */
  window_start: number;
  count: number;
}

export interface SigningKeysTable {
  id: string;
  algorithm: string;
  public_jwk: Json;
  private_key: string;
  active: Flag;
  created_at: Timestamp;
  /** When a newer key took over; published until the JWTs this one signed have expired. */
  retired_at: Timestamp | null;
}

/** A member's password hash (argon2id, or an imported format re-hashed at the next login). */
export interface PasswordsTable {
  id: string;
  project_id: string;
  member_id: string;
  hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An authenticator-app registration; pending until its first code verifies. */
export interface TotpRegistrationsTable {
  id: string;
  project_id: string;
  member_id: string;
  /** The base32 secret, encrypted with the server key. */
  secret_encrypted: string;
  /** The last time step accepted, so a code is never accepted twice. */
  last_used_step: number | null;
  verified_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** One recovery code of a TOTP registration, hashed; single use. */
export interface RecoveryCodesTable {
  id: string;
  project_id: string;
  member_id: string;
  totp_registration_id: string;
  code_hash: string;
  /** The code sealed with the server key, for showing the remaining codes again. */
  code_encrypted: Generated<string>;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** A one-time code sent by SMS, keyed (HMAC) with the server key; attempts are capped. */
export interface OtpCodesTable {
  id: string;
  project_id: string;
  member_id: string;
  phone_number: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Failed password attempts of a member in the current lockout window (which starts at the first). */
export interface PasswordFailuresTable {
  member_id: string;
  project_id: string;
  failures: number;
  window_start: Timestamp;
}

/**
 * Back-off counters (`reserveWithBackoff`): attempts of one subject (a client IP) within one scope
 * (a password sign-in's organization and e-mail), and how long the next one must wait. Times in
 * whole seconds since the epoch.
 */
export interface RateLimitBackoffsTable {
  scope: string;
  subject: string;
  attempts: number;
  delay_seconds: number;
  blocked_until: number;
  last_attempt: number;
}

/**
 * Wrong second-factor codes of a member in a row, per factor kind (`totp`, which recovery codes
 * share, or `sms_otp`); at the configured bound the factor is locked until a reset.
 */
export interface FactorFailuresTable {
  member_id: string;
  factor: string;
  project_id: string;
  /** Attempts reserved since the last success; each is counted before its code is checked. */
  failures: number;
  updated_at: Timestamp;
}

/** An SSO connection of an organization; `settings` is the kind's JSON (SAML or OIDC). */
export interface SsoConnectionsTable {
  id: string;
  project_id: string;
  organization_id: string;
  kind: 'saml' | 'oidc';
  display_name: string;
  identity_provider: string;
  status: 'pending' | 'active';
  settings: Json;
  /** The OIDC client secret, sealed with the server key. */
  secret_encrypted: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An X.509 certificate a SAML IdP signs with (public; several during a rotation). */
export interface SsoCertificatesTable {
  id: string;
  connection_id: string;
  certificate: string;
  issuer: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/**
 * A sign-in we sent to an IdP: the SAML AuthnRequest ID (`id`) or the OIDC state (hashed), with
 * where to return and the app's PKCE challenge. Answered at most once.
 */
export interface SsoRequestsTable {
  id: string;
  project_id: string;
  connection_id: string;
  state_hash: string | null;
  nonce: string | null;
  /** Our PKCE verifier towards the OIDC provider, sealed with the server key. */
  code_verifier_encrypted: string | null;
  pkce_challenge: string | null;
  login_redirect_url: string;
  signup_redirect_url: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** The hash of the starting browser's binding cookie; null for rows written before it. */
  browser_hash?: string | null;
}

/** SAML assertion IDs already accepted, kept until the assertion expires: replays fail. */
export interface SsoAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: Timestamp;
}

/** A project's settings for one OAuth provider. */
/** A project's captcha provider (docs/protocol.md §6); one row per project at most. */
export interface CaptchaSettingsTable {
  project_id: string;
  enabled: Flag;
  provider: string;
  site_key: string;
  /** The provider's secret key, sealed with the server key. */
  secret_encrypted: string | null;
  min_score: number;
  updated_at: Timestamp;
}

export interface OAuthProvidersTable {
  project_id: string;
  provider: string;
  enabled: Flag;
  client_id: string;
  /** The client secret, sealed with the server key. */
  secret_encrypted: string | null;
  issuer: string;
  onetap_client_id: string;
  updated_at: Timestamp;
}

/**
 * A sign-in sent to an OAuth provider: our state (hashed), nonce and PKCE verifier (sealed), the
 * organization (null for discovery), the app's PKCE challenge and where to return.
 */
export interface OAuthRequestsTable {
  id: string;
  project_id: string;
  provider: string;
  organization_id: string | null;
  state_hash: string;
  /** Hash of the binding cookie of the browser that started (null on rows from before it). */
  browser_hash: string | null;
  nonce: string;
  code_verifier_encrypted: string;
  pkce_challenge: string | null;
  /** JSON `{login, signup}` or `{discovery}`. */
  redirect_urls: Json;
  /** Space-separated scopes asked for. */
  scopes: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/**
 * A provider identity (issuer and subject) linked to a member on its first sign-in. `provider`
 * is `google`, `microsoft`, or `sso:<connection_id>`.
 */
export interface MemberFederatedIdentitiesTable {
  id: string;
  project_id: string;
  organization_id: string;
  member_id: string;
  provider: string;
  issuer: string;
  subject: string;
  /** The address the identity had when it was linked. */
  email: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
}

/** The whole database, as Kysely sees it. */
export interface Database {
  projects: ProjectsTable;
  secrets: SecretsTable;
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  members: MembersTable;
  member_roles: MemberRolesTable;
  sso_connections: SsoConnectionsTable;
  sso_certificates: SsoCertificatesTable;
  sso_requests: SsoRequestsTable;
  sso_assertions: SsoAssertionsTable;
  oauth_providers: OAuthProvidersTable;
  captcha_settings: CaptchaSettingsTable;
  oauth_requests: OAuthRequestsTable;
  sessions: SessionsTable;
  intermediate_sessions: IntermediateSessionsTable;
  tokens: TokensTable;
  outbox: OutboxTable;
  events: EventsTable;
  rate_limits: RateLimitsTable;
  signing_keys: SigningKeysTable;
  passwords: PasswordsTable;
  totp_registrations: TotpRegistrationsTable;
  recovery_codes: RecoveryCodesTable;
  otp_codes: OtpCodesTable;
  password_failures: PasswordFailuresTable;
  rate_limit_backoffs: RateLimitBackoffsTable;
  factor_failures: FactorFailuresTable;
  rbac_policies: RbacPoliciesTable;
  member_federated_identities: MemberFederatedIdentitiesTable;
}

/** A database handle or an open transaction: services accept either. */
export type Db = Kysely<Database>;

/**
 * A time as stored and sent: an RFC 3339 UTC string of fixed width (see `Timestamp`).
 *
 * @example
 * isoAt(0); // '1970-01-01T00:00:00.000Z'
 */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
