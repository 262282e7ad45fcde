/** Table types of the Gatehouse database: portable column types only (text, integer). */
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
}

/** The whole database, as Kysely sees it. */
export interface Database {
  projects: ProjectsTable;
  secrets: SecretsTable;
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  members: MembersTable;
  member_roles: MemberRolesTable;
  sessions: SessionsTable;
  intermediate_sessions: IntermediateSessionsTable;
  tokens: TokensTable;
  outbox: OutboxTable;
  events: EventsTable;
  rate_limits: RateLimitsTable;
  signing_keys: SigningKeysTable;
}
