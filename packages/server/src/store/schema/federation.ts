// The federation tables: SSO connections with their certificates, requests and used assertions,
// OAuth providers and requests, and the provider identities linked to members.
import type { Columns, Flag, Json, TableColumns, Timestamp } from './columns.js';

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

const ssoConnectionsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  organization_id: 'text not null',
  kind: 'text not null',
  display_name: 'text not null',
  identity_provider: 'text not null',
  status: 'text not null',
  settings: 'text not null',
  secret_encrypted: 'text',
  created_at: 'text not null',
  updated_at: 'text not null',
} satisfies Columns<SsoConnectionsTable>;

/** An X.509 certificate a SAML IdP signs with (public; several during a rotation). */
export interface SsoCertificatesTable {
  id: string;
  connection_id: string;
  certificate: string;
  issuer: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

const ssoCertificatesColumns = {
  id: 'text not null',
  connection_id: 'text not null',
  certificate: 'text not null',
  issuer: 'text not null',
  expires_at: 'text not null',
  created_at: 'text not null',
} satisfies Columns<SsoCertificatesTable>;

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
  /** The admin who started a test sign-in (docs/protocol.md §7.10); null for real sign-ins. */
  test_member_id?: string | null;
  /** A test's report (JSON) once the IdP answered it; null until then and for real sign-ins. */
  test_report?: string | null;
}

const ssoRequestsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  connection_id: 'text not null',
  state_hash: 'text',
  nonce: 'text',
  code_verifier_encrypted: 'text',
  pkce_challenge: 'text',
  login_redirect_url: 'text not null',
  signup_redirect_url: 'text not null',
  created_at: 'text not null',
  expires_at: 'text not null',
  used_at: 'text',
  browser_hash: 'text',
  test_member_id: 'text',
  test_report: 'text',
} satisfies Columns<SsoRequestsTable>;

/** SAML assertion IDs already accepted, kept until the assertion expires: replays fail. */
export interface SsoAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: Timestamp;
}

const ssoAssertionsColumns = {
  connection_id: 'text not null',
  assertion_id: 'text not null',
  expires_at: 'text not null',
} satisfies Columns<SsoAssertionsTable>;

/** A project's settings for one OAuth provider. */
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

const oauthProvidersColumns = {
  project_id: 'text not null',
  provider: 'text not null',
  enabled: 'integer not null',
  client_id: 'text not null',
  secret_encrypted: 'text',
  issuer: 'text not null',
  onetap_client_id: 'text not null',
  updated_at: 'text not null',
} satisfies Columns<OAuthProvidersTable>;

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

const oauthRequestsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  provider: 'text not null',
  organization_id: 'text',
  state_hash: 'text not null',
  browser_hash: 'text',
  nonce: 'text not null',
  code_verifier_encrypted: 'text not null',
  pkce_challenge: 'text',
  redirect_urls: 'text not null',
  scopes: 'text not null',
  created_at: 'text not null',
  expires_at: 'text not null',
  used_at: 'text',
} satisfies Columns<OAuthRequestsTable>;

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
  /** An OAuth provider's `picture` claim at the last sign-in; null when it sent none. */
  profile_picture_url?: string | null;
  /** An OAuth provider's `locale` claim at the last sign-in; null when it sent none. */
  locale?: string | null;
  /** The attributes (JSON object) an SSO connection's IdP sent at the last sign-in. */
  attributes?: Json | null;
}

const memberFederatedIdentitiesColumns = {
  id: 'text not null',
  project_id: 'text not null',
  organization_id: 'text not null',
  member_id: 'text not null',
  provider: 'text not null',
  issuer: 'text not null',
  subject: 'text not null',
  email: 'text not null',
  created_at: 'text not null',
  last_used_at: 'text not null',
  profile_picture_url: 'text',
  locale: 'text',
  attributes: 'text',
} satisfies Columns<MemberFederatedIdentitiesTable>;

/** The tables of this area, by name (part of `Database`). */
export interface FederationTables {
  sso_connections: SsoConnectionsTable;
  sso_certificates: SsoCertificatesTable;
  sso_requests: SsoRequestsTable;
  sso_assertions: SsoAssertionsTable;
  oauth_providers: OAuthProvidersTable;
  oauth_requests: OAuthRequestsTable;
  member_federated_identities: MemberFederatedIdentitiesTable;
}

/** Their columns as the migrations create them. */
export const FEDERATION_COLUMNS = {
  sso_connections: ssoConnectionsColumns,
  sso_certificates: ssoCertificatesColumns,
  sso_requests: ssoRequestsColumns,
  sso_assertions: ssoAssertionsColumns,
  oauth_providers: oauthProvidersColumns,
  oauth_requests: oauthRequestsColumns,
  member_federated_identities: memberFederatedIdentitiesColumns,
} satisfies TableColumns<FederationTables>;
