/** SSO connections as stored and on the wire: each kind's settings, our side's URLs, and when a connection is active. */
import { X509Certificate } from 'node:crypto';
import {
  DEFAULT_OIDC_ATTRIBUTE_MAPPING,
  DEFAULT_SAML_ATTRIBUTE_MAPPING,
  SAML_NAMEID_FORMAT,
  type ConnectionRoleAssignment,
  type GroupRoleAssignment,
  type OidcAttributeMapping,
  type OidcConnection,
  type SamlAttributeMapping,
  type SamlConnection,
  type SamlVerificationCertificate,
  type SsoConnectionStatus,
} from '@gatehouse/protocol';
import type { SsoCertificatesTable, SsoConnectionsTable } from '../../store/schema.js';

/** The IdP side of a SAML connection (the `settings` JSON of a `saml` row). */
export interface SamlSettings {
  idp_entity_id: string;
  idp_sso_url: string;
  attribute_mapping: SamlAttributeMapping;
  group_roles: GroupRoleAssignment[];
  /** Roles of everyone who signs in through the connection. */
  connection_roles: ConnectionRoleAssignment[];
  allow_idp_initiated: boolean;
  /** Whether real sign-ins may use the connection (its test sign-in always may); rows from before it: on. */
  sign_in_enabled: boolean;
}

/** The provider side of an OIDC connection (the `settings` JSON of an `oidc` row). */
export interface OidcSettings {
  issuer: string;
  client_id: string;
  authorization_url: string;
  token_url: string;
  userinfo_url: string;
  jwks_url: string;
  /** Space-separated scopes that replace the default ones, always with `openid`; `''`: default. */
  custom_scopes: string;
  attribute_mapping: OidcAttributeMapping;
  group_roles: GroupRoleAssignment[];
  /** As for SAML. */
  sign_in_enabled: boolean;
}

export const EMPTY_SAML_SETTINGS: SamlSettings = {
  idp_entity_id: '',
  idp_sso_url: '',
  attribute_mapping: DEFAULT_SAML_ATTRIBUTE_MAPPING,
  group_roles: [],
  connection_roles: [],
  allow_idp_initiated: false,
  sign_in_enabled: true,
};

export const EMPTY_OIDC_SETTINGS: OidcSettings = {
  issuer: '',
  client_id: '',
  authorization_url: '',
  token_url: '',
  userinfo_url: '',
  jwks_url: '',
  custom_scopes: '',
  attribute_mapping: DEFAULT_OIDC_ATTRIBUTE_MAPPING,
  group_roles: [],
  sign_in_enabled: true,
};

export function samlSettings(row: SsoConnectionsTable): SamlSettings {
  return { ...EMPTY_SAML_SETTINGS, ...(JSON.parse(row.settings) as Partial<SamlSettings>) };
}

export function oidcSettings(row: SsoConnectionsTable): OidcSettings {
  return { ...EMPTY_OIDC_SETTINGS, ...(JSON.parse(row.settings) as Partial<OidcSettings>) };
}

/**
 * Whether a connection may be used for real sign-ins: its IdP side complete and its admins have
 * turned it on (a connection stored before the switch existed is on).
 */
export function usableForSignIn(row: SsoConnectionsTable): boolean {
  const settings = JSON.parse(row.settings) as { sign_in_enabled?: boolean };
  return row.status === 'active' && settings.sign_in_enabled !== false;
}

/** Our side of the connections: the URLs an IdP admin configures, under the server's public URL. */
export interface SsoUrls {
  /** The SP entity ID, which is also where the SP metadata is served. */
  samlEntityId(connectionId: string): string;
  samlAcsUrl(connectionId: string): string;
  oidcRedirectUrl(): string;
}

/**
 * The URLs of our side under `publicUrl`.
 *
 * @example
 * ssoUrls('https://auth.example.com').samlAcsUrl('saml-connection-live-…');
 */
export function ssoUrls(publicUrl: string): SsoUrls {
  return {
    samlEntityId: (id) => `${publicUrl}/v1/sso/saml/metadata/${encodeURIComponent(id)}`,
    samlAcsUrl: (id) => `${publicUrl}/v1/sso/saml/acs/${encodeURIComponent(id)}`,
    oidcRedirectUrl: () => `${publicUrl}/v1/sso/oidc/callback`,
  };
}

/** A SAML connection is active once the IdP's entity ID, SSO URL and a certificate are known. */
export function samlStatus(settings: SamlSettings, certificates: number): SsoConnectionStatus {
  return settings.idp_entity_id !== '' && settings.idp_sso_url !== '' && certificates > 0
    ? 'active'
    : 'pending';
}

/** An OIDC connection is active once discovery found its endpoints and it has client credentials. */
export function oidcStatus(settings: OidcSettings, hasSecret: boolean): SsoConnectionStatus {
  return settings.issuer !== '' &&
    settings.client_id !== '' &&
    settings.authorization_url !== '' &&
    settings.token_url !== '' &&
    hasSecret
    ? 'active'
    : 'pending';
}

/** A parsed PEM certificate, or null when the text is not one. */
export interface ParsedCertificate {
  pem: string;
  issuer: string;
  expiresAt: Date;
}

/**
 * Reads an X.509 certificate given as PEM, or as bare base64 DER (how IdP metadata carries it).
 *
 * @example
 * const cert = parseCertificate(body.x509_certificate);
 * if (!cert) return notACertificate();
 */
export function parseCertificate(text: string): ParsedCertificate | null {
  const trimmed = text.trim();
  const pem = trimmed.includes('-----BEGIN CERTIFICATE-----')
    ? trimmed
    : `-----BEGIN CERTIFICATE-----\n${(trimmed.replace(/\s+/g, '').match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`;
  try {
    const cert = new X509Certificate(pem);
    return { pem: cert.toString().trim(), issuer: cert.issuer, expiresAt: new Date(cert.validTo) };
  } catch {
    return null;
  }
}

export function toCertificate(row: SsoCertificatesTable): SamlVerificationCertificate {
  return {
    certificate_id: row.id,
    certificate: row.certificate,
    issuer: row.issuer,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

/** The wire form of a SAML connection row with its certificates. */
export function toSamlConnection(
  row: SsoConnectionsTable,
  certificates: readonly SsoCertificatesTable[],
  urls: SsoUrls,
): SamlConnection {
  const settings = samlSettings(row);
  return {
    organization_id: row.organization_id,
    connection_id: row.id,
    status: row.status,
    display_name: row.display_name,
    identity_provider: row.identity_provider,
    audience_uri: urls.samlEntityId(row.id),
    acs_url: urls.samlAcsUrl(row.id),
    sp_metadata_url: urls.samlEntityId(row.id),
    idp_entity_id: settings.idp_entity_id,
    idp_sso_url: settings.idp_sso_url,
    verification_certificates: certificates
      .filter((c) => c.connection_id === row.id)
      .map(toCertificate),
    signing_certificates: [],
    encryption_private_keys: [],
    attribute_mapping: settings.attribute_mapping,
    saml_group_implicit_role_assignments: settings.group_roles,
    saml_connection_implicit_role_assignments: settings.connection_roles,
    allow_idp_initiated: settings.allow_idp_initiated,
    sign_in_enabled: settings.sign_in_enabled,
    idp_initiated_auth_disabled: !settings.allow_idp_initiated,
    nameid_format: SAML_NAMEID_FORMAT,
    alternative_audience_uri: '',
    alternative_acs_url: '',
    allow_gateway_callback: false,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The wire form of an OIDC connection row; the client secret never leaves the server. */
export function toOidcConnection(row: SsoConnectionsTable, urls: SsoUrls): OidcConnection {
  const settings = oidcSettings(row);
  return {
    organization_id: row.organization_id,
    connection_id: row.id,
    status: row.status,
    display_name: row.display_name,
    identity_provider: row.identity_provider,
    redirect_url: urls.oidcRedirectUrl(),
    issuer: settings.issuer,
    client_id: settings.client_id,
    client_secret: '',
    client_secret_set: row.secret_encrypted !== null,
    authorization_url: settings.authorization_url,
    token_url: settings.token_url,
    userinfo_url: settings.userinfo_url,
    jwks_url: settings.jwks_url,
    custom_scopes: settings.custom_scopes,
    attribute_mapping: settings.attribute_mapping,
    oidc_group_implicit_role_assignments: settings.group_roles,
    sign_in_enabled: settings.sign_in_enabled,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
