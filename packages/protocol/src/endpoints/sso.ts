/**
 * Managing SSO connections: the management API (secret key, any organization of the project) and
 * the SDK's member-session endpoints of docs/protocol.md §7.10 (the caller's own organization,
 * members whose roles grant `stytch.sso`).
 */
import { z } from 'zod';
import type {
  OidcConnectionResult,
  SamlConnectionResult,
  SsoConnectionDeleteResult,
  SsoConnectionResult,
  SsoConnectionsResult,
  SsoConnectionTestResult,
  SsoConnectionTestStartResult,
} from '../sso.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

const groupRoles = z.array(z.object({ group: f.text.max(256), role_id: f.text.max(128) })).max(100);
/** Roles every member who signs in through the connection holds. */
const connectionRoles = z.array(z.object({ role_id: f.text.max(128) })).max(100);

/** Which attribute (SAML) or claim (OIDC) carries each member field; the fields not given stay. */
const attributeMapping = z
  .object({
    email: f.text.max(256),
    first_name: z.string().max(256),
    last_name: z.string().max(256),
    groups: z.string().max(256),
  })
  .partial();

const common = {
  display_name: f.text.max(128).optional(),
  identity_provider: f.text.max(64).optional(),
  /**
   * On a change: the connection's `updated_at` the caller's screen loaded; the change is made only
   * while the stored one is the same (409 `stale_update` otherwise). Ignored on creation.
   */
  updated_at: z.string().min(1).max(64).optional(),
  /** Whether real sign-ins may use the connection; on when a creation leaves it out. */
  sign_in_enabled: z.boolean().optional(),
};

/** The IdP side of a SAML connection; `x509_certificate` adds a verification certificate. */
export const samlConnectionFields = z.object({
  ...common,
  idp_entity_id: f.url.optional(),
  idp_sso_url: f.url.optional(),
  x509_certificate: z.string().max(20_000).optional(),
  attribute_mapping: attributeMapping.optional(),
  saml_group_implicit_role_assignments: groupRoles.optional(),
  saml_connection_implicit_role_assignments: connectionRoles.optional(),
  allow_idp_initiated: z.boolean().optional(),
});

/** IdP metadata, by URL (fetched by the server) or as the XML itself: exactly one. */
export const samlMetadataFields = z.object({
  metadata_url: f.url.optional(),
  metadata_xml: z.string().max(1_000_000).optional(),
});

/** An OIDC provider; the endpoints are found through the issuer's discovery document. */
export const oidcConnectionFields = z.object({
  ...common,
  issuer: f.url.optional(),
  client_id: f.text.max(512).optional(),
  client_secret: f.text.max(2048).optional(),
  /**
   * Space-separated scopes (RFC 6749 §3.3 characters; `%20` is read as a space, as the provider's
   * SDK writes it) that replace `openid email profile`; `""` restores the default.
   */
  custom_scopes: z
    .string()
    .max(1024)
    .regex(/^[\x20\x21\x23-\x5B\x5D-\x7E]*$/, 'must be scopes separated by spaces')
    .optional(),
  attribute_mapping: attributeMapping.optional(),
  oidc_group_implicit_role_assignments: groupRoles.optional(),
});

const ORG = '/v1/b2b/sso/:organization_id';
const SAML = '/v1/b2b/sso/saml/:organization_id/connections/:connection_id';
const OIDC = '/v1/b2b/sso/oidc/:organization_id/connections/:connection_id';

export const SSO_ENDPOINTS = {
  ssoList: endpoint<SsoConnectionsResult>()({
    method: 'GET',
    path: ORG,
    credential: 'secret',
    summary: "Lists an organization's SAML and OIDC connections.",
    body: null,
  }),
  ssoGet: endpoint<SsoConnectionResult>()({
    method: 'GET',
    path: `${ORG}/connections/:connection_id`,
    credential: 'secret',
    summary: 'Reads one SSO connection.',
    body: null,
  }),
  ssoDelete: endpoint<SsoConnectionDeleteResult>()({
    method: 'DELETE',
    path: `${ORG}/connections/:connection_id`,
    credential: 'secret',
    summary: 'Deletes an SSO connection.',
    body: null,
  }),
  ssoCreateSaml: endpoint<SamlConnectionResult>()({
    method: 'POST',
    path: '/v1/b2b/sso/saml/:organization_id',
    credential: 'secret',
    summary: 'Creates a SAML connection (pending until the IdP side is set).',
    body: samlConnectionFields,
  }),
  ssoUpdateSaml: endpoint<SamlConnectionResult>()({
    method: 'PUT',
    path: SAML,
    credential: 'secret',
    summary: "Changes a SAML connection's IdP side, attribute mapping or group roles.",
    body: samlConnectionFields,
  }),
  ssoUpdateSamlByMetadata: endpoint<SamlConnectionResult>()({
    method: 'PUT',
    path: `${SAML}/url`,
    credential: 'secret',
    summary: 'Sets the IdP side of a SAML connection from IdP metadata (URL or XML).',
    body: samlMetadataFields,
  }),
  ssoDeleteSamlCertificate: endpoint<SamlConnectionResult>()({
    method: 'DELETE',
    path: `${SAML}/verification_certificates/:certificate_id`,
    credential: 'secret',
    summary: 'Removes a verification certificate (the end of a rotation).',
    body: null,
  }),
  ssoCreateOidc: endpoint<OidcConnectionResult>()({
    method: 'POST',
    path: '/v1/b2b/sso/oidc/:organization_id',
    credential: 'secret',
    summary: 'Creates an OIDC connection; with an issuer, its endpoints are discovered.',
    body: oidcConnectionFields,
  }),
  ssoUpdateOidc: endpoint<OidcConnectionResult>()({
    method: 'PUT',
    path: OIDC,
    credential: 'secret',
    summary: 'Changes an OIDC connection: its provider, scopes, claim mapping or group roles.',
    body: oidcConnectionFields,
  }),

  sdkSsoList: endpoint<SsoConnectionsResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/sso',
    credential: 'S',
    summary: "Lists the caller's organization's SSO connections (§7.10).",
    body: null,
  }),
  sdkSsoDelete: endpoint<SsoConnectionDeleteResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/sso/:connection_id',
    credential: 'S',
    summary: 'Deletes an SSO connection of the caller’s organization (§7.10).',
    body: null,
  }),
  sdkSsoCreateSaml: endpoint<SamlConnectionResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sso/saml',
    credential: 'S',
    summary: 'Creates a SAML connection in the caller’s organization (§7.10).',
    body: samlConnectionFields,
  }),
  sdkSsoUpdateSaml: endpoint<SamlConnectionResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/sso/saml/:connection_id',
    credential: 'S',
    summary: 'Changes a SAML connection of the caller’s organization (§7.10).',
    body: samlConnectionFields,
  }),
  sdkSsoUpdateSamlByMetadata: endpoint<SamlConnectionResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/sso/saml/:connection_id/url',
    credential: 'S',
    summary: 'Sets a SAML connection from IdP metadata (§7.10).',
    body: samlMetadataFields,
  }),
  sdkSsoDeleteSamlCertificate: endpoint<SamlConnectionResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/sso/saml/:connection_id/verification_certificates/:certificate_id',
    credential: 'S',
    summary: 'Removes a verification certificate (§7.10).',
    body: null,
  }),
  sdkSsoTestSaml: endpoint<SsoConnectionTestStartResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sso/saml/:connection_id/test',
    credential: 'S',
    summary: 'Starts a test sign-in of a SAML connection: checks only, nobody signed in (§7.10).',
    body: z.object({}).strict(),
  }),
  sdkSsoTestSamlResult: endpoint<SsoConnectionTestResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/sso/saml/:connection_id/test/:test_id',
    credential: 'S',
    summary: "Reads a test sign-in's report: pending until the IdP answers (§7.10).",
    body: null,
  }),
  sdkSsoTestOidc: endpoint<SsoConnectionTestStartResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sso/oidc/:connection_id/test',
    credential: 'S',
    summary: 'Starts a test sign-in of an OIDC connection: checks only, nobody signed in (§7.10).',
    body: z.object({}).strict(),
  }),
  sdkSsoTestOidcResult: endpoint<SsoConnectionTestResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/sso/oidc/:connection_id/test/:test_id',
    credential: 'S',
    summary: "Reads an OIDC test sign-in's report: pending until the IdP answers (§7.10).",
    body: null,
  }),
  sdkSsoCreateOidc: endpoint<OidcConnectionResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sso/oidc',
    credential: 'S',
    summary: 'Creates an OIDC connection in the caller’s organization (§7.10).',
    body: oidcConnectionFields,
  }),
  sdkSsoUpdateOidc: endpoint<OidcConnectionResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/sso/oidc/:connection_id',
    credential: 'S',
    summary: 'Changes an OIDC connection of the caller’s organization (§7.10).',
    body: oidcConnectionFields,
  }),
} as const;
