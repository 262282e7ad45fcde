/** SSO connections on the wire: SAML and OIDC identity providers of an organization (docs/protocol.md §7.10). */
import type { Ack } from './api.js';

/** Pending until the identity provider's side is complete, then active (usable for sign-in). */
export type SsoConnectionStatus = 'pending' | 'active';

/** The two kinds of connection. */
export type SsoConnectionKind = 'saml' | 'oidc';

/**
 * A label for the identity provider product, shown to admins; it changes nothing in the flow.
 * Free text up to 64 characters; these are the ones the docs describe.
 */
export const IDENTITY_PROVIDERS = [
  'generic',
  'okta',
  'microsoft-entra',
  'google-workspace',
  'jumpcloud',
  'onelogin',
  'keycloak',
] as const;

/**
 * Which SAML attribute carries each member field. `email` falls back to the NameID when the
 * attribute is absent; `groups` may be multi-valued.
 */
export interface SamlAttributeMapping {
  email: string;
  first_name: string;
  last_name: string;
  groups: string;
}

/** The default attribute names (what most IdPs can be told to send). */
export const DEFAULT_SAML_ATTRIBUTE_MAPPING: SamlAttributeMapping = {
  email: 'email',
  first_name: 'firstName',
  last_name: 'lastName',
  groups: 'groups',
};

/**
 * Which ID token (or userinfo) claim carries each member field of an OIDC connection. `email`
 * must still come with `email_verified: true`; `groups` may be an array of strings or one string;
 * `""` for `groups` reads none.
 */
export interface OidcAttributeMapping {
  email: string;
  first_name: string;
  last_name: string;
  groups: string;
}

/** The standard claim names (OpenID Connect Core §5.1), and `groups` as most providers send it. */
export const DEFAULT_OIDC_ATTRIBUTE_MAPPING: OidcAttributeMapping = {
  email: 'email',
  first_name: 'given_name',
  last_name: 'family_name',
  groups: 'groups',
};

/** The scopes an OIDC connection asks for unless its `custom_scopes` replace them. */
export const DEFAULT_OIDC_SCOPES = 'openid email profile';

/** One X.509 certificate the IdP signs with; a connection may hold several during a rotation. */
export interface SamlVerificationCertificate {
  certificate_id: string;
  /** PEM. */
  certificate: string;
  /** The certificate's issuer distinguished name. */
  issuer: string;
  created_at: string;
  /** The certificate's notAfter. */
  expires_at: string;
}

/** Members of an IdP group get a role (on every SSO sign-in, JIT or existing member). */
export interface GroupRoleAssignment {
  group: string;
  role_id: string;
}

/** Every member who signs in through the connection gets a role. */
export interface ConnectionRoleAssignment {
  role_id: string;
}

/** A private key for encrypted assertions; Gatehouse takes none yet, so the list is empty. */
export interface SamlEncryptionPrivateKey {
  private_key_id: string;
  private_key: string;
  created_at?: string;
}

/** The NameID format of Gatehouse's requests: unspecified, the IdP's choice (any is accepted). */
export const SAML_NAMEID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

export interface SamlConnection {
  organization_id: string;
  connection_id: string;
  status: SsoConnectionStatus;
  display_name: string;
  identity_provider: string;
  /** Our side, to paste into the IdP: the SP entity ID (the audience of assertions). */
  audience_uri: string;
  /** Our side: the assertion consumer service URL (HTTP-POST binding). */
  acs_url: string;
  /** Our side as SP metadata XML. */
  sp_metadata_url: string;
  /** The IdP side. */
  idp_entity_id: string;
  idp_sso_url: string;
  verification_certificates: SamlVerificationCertificate[];
  /** Certificates Gatehouse signs its requests with; it signs none: `[]`. */
  signing_certificates: SamlVerificationCertificate[];
  encryption_private_keys: SamlEncryptionPrivateKey[];
  attribute_mapping: SamlAttributeMapping;
  saml_group_implicit_role_assignments: GroupRoleAssignment[];
  /**
   * Roles every member signing in through the connection holds, in the sessions that signed in
   * through it.
   */
  saml_connection_implicit_role_assignments: ConnectionRoleAssignment[];
  /** Whether responses the IdP sends unprompted (no AuthnRequest of ours) are accepted. */
  allow_idp_initiated: boolean;
  /**
   * Gatehouse's own: whether real sign-ins may use the connection. Off, only its test sign-in
   * works, the login page does not offer it and it is nobody's default. Connections made through
   * the APIs start on; the admin portal makes them off, to be turned on after a test.
   */
  sign_in_enabled: boolean;
  /** The provider's name for the opposite of `allow_idp_initiated`. */
  idp_initiated_auth_disabled: boolean;
  /** {@link SAML_NAMEID_FORMAT}. */
  nameid_format: string;
  /** A second audience and ACS URL; Gatehouse has one of each: `""`. */
  alternative_audience_uri: string;
  alternative_acs_url: string;
  allow_gateway_callback: boolean;
  created_at: string;
  updated_at: string;
}

export interface OidcConnection {
  organization_id: string;
  connection_id: string;
  status: SsoConnectionStatus;
  display_name: string;
  identity_provider: string;
  /** Our side, to register at the IdP as the client's redirect URI. */
  redirect_url: string;
  issuer: string;
  client_id: string;
  /** Always `""`: the stored secret is never returned (`client_secret_set` says whether one is). */
  client_secret: string;
  /** Whether a client secret is stored; the secret itself is never returned. */
  client_secret_set: boolean;
  /** Found through the issuer's discovery document. */
  authorization_url: string;
  token_url: string;
  userinfo_url: string;
  jwks_url: string;
  /**
   * Space-separated scopes that replace {@link DEFAULT_OIDC_SCOPES} (`openid` is always asked
   * for); `""` for the default.
   */
  custom_scopes: string;
  /** Which claims carry the member's fields. */
  attribute_mapping: OidcAttributeMapping;
  /** Roles from the groups claim (`attribute_mapping.groups`). */
  oidc_group_implicit_role_assignments: GroupRoleAssignment[];
  /** As on {@link SamlConnection.sign_in_enabled}. */
  sign_in_enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface SsoConnectionsResult extends Ack {
  saml_connections: SamlConnection[];
  oidc_connections: OidcConnection[];
  /** Connections that reuse another organization's; not offered: `[]`. */
  external_connections: never[];
}

export interface SamlConnectionResult extends Ack {
  connection: SamlConnection;
}

export interface OidcConnectionResult extends Ack {
  connection: OidcConnection;
}

export interface SsoConnectionDeleteResult extends Ack {
  connection_id: string;
}

export interface SsoConnectionResult extends Ack {
  connection: SamlConnection | OidcConnection;
}

/**
 * The checks of a test sign-in, in the order they are shown. SAML: the response's signature, its
 * issuer, audience, recipient (destination and ACS), times against the server's clock, the
 * NameID, the e-mail (the mapped attribute, else an e-mail NameID) and the other mapped
 * attributes. OIDC: the discovery document, the code exchange, the ID token's signature, issuer,
 * audience, nonce and expiry, the e-mail claim, its `email_verified`, and the mapped claims.
 */
export const SSO_TEST_CHECKS = [
  'discovery',
  'token_exchange',
  'signature',
  'issuer',
  'audience',
  'recipient',
  'clock',
  'nonce',
  'expiry',
  'name_id',
  'email',
  'email_verified',
  'attributes',
] as const;

export type SsoTestCheckName = (typeof SSO_TEST_CHECKS)[number];

/**
 * One check's outcome: `not_checked` when an earlier failure ended the verification; `warning`
 * when sign-in would work but something is missing (a mapped attribute the IdP did not send).
 */
export interface SsoTestCheck {
  check: SsoTestCheckName;
  status: 'passed' | 'failed' | 'warning' | 'not_checked';
  /** What was found, in English (the widget shows its own words for `check` and `status`). */
  message: string;
}

/** A test sign-in of a SAML or OIDC connection: nobody is signed in and no member is created. */
export interface SsoConnectionTest {
  test_id: string;
  connection_id: string;
  /** `pending` until the IdP's response reaches the ACS. */
  status: 'pending' | 'passed' | 'failed';
  started_at: string;
  /** Until when the IdP may still answer. */
  expires_at: string;
  finished_at: string | null;
  checks: SsoTestCheck[];
  /** Why the response was refused, in English; null while pending or when it was accepted. */
  error: string | null;
  /** The NameID the IdP sent; `""` while pending or when the response was refused. */
  name_id: string;
  /** Every attribute the IdP sent, by name; `{}` while pending or when refused. */
  attributes: Record<string, string[]>;
  /** The member fields the connection's attribute mapping reads from them. */
  mapped: { email: string; first_name: string; last_name: string; groups: string[] };
  /**
   * The roles a sign-in through the connection would give this person: those of their groups'
   * rules, and (SAML) the connection's roles for everyone who signs in through it.
   */
  roles: string[];
}

export interface SsoConnectionTestStartResult extends Ack {
  test: SsoConnectionTest;
  /**
   * The IdP URL to open (in a popup): an AuthnRequest answered to this connection's ACS, or an
   * OIDC authorization request answered to the OIDC callback.
   */
  idp_url: string;
}

export interface SsoConnectionTestResult extends Ack {
  test: SsoConnectionTest;
}
