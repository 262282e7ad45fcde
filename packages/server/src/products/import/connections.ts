/**
 * Importing an organization's SSO connections with their ids (`gatehouse import`): the IdP side
 * of a SAML connection with every verification certificate and its roles, an OIDC connection's issuer, client
 * id, custom scopes and claim mapping (its secret is never readable from the source: the note
 * says to set it).
 */
import {
  DEFAULT_OIDC_ATTRIBUTE_MAPPING,
  type OidcAttributeMapping,
  type OidcConnection,
  type SamlConnection,
} from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { isFailure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  createOidcConnection,
  createSamlConnection,
  getConnection,
  updateOidcConnection,
  updateSamlConnection,
  type OidcInput,
  type SamlInput,
} from '../sso/service.js';
import { normalizeScopes } from '../sso/oidc-mapping.js';
import { gatehouseRoleId } from './ids.js';
import { idRefusal, sameFields, type ImportOutcome } from './service.js';

const skipped = (reason: string): ImportOutcome => ({ outcome: 'skipped', reason });

/** A PEM's base64 body alone, so the same certificate compares equal however it is wrapped. */
const pemBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** Group → role rules, by Gatehouse's role ids. */
const groupRoles = (rules: { group: string; role_id: string }[]) =>
  rules.map((r) => ({ group: r.group, role_id: gatehouseRoleId(r.role_id) }));

/** The IdP side of a SAML connection as a creation or update takes it, without certificates. */
function samlInput(c: SamlConnection): SamlInput {
  return {
    display_name: c.display_name,
    identity_provider: c.identity_provider,
    ...(c.idp_entity_id ? { idp_entity_id: c.idp_entity_id } : {}),
    ...(c.idp_sso_url ? { idp_sso_url: c.idp_sso_url } : {}),
    attribute_mapping: c.attribute_mapping,
    saml_group_implicit_role_assignments: groupRoles(c.saml_group_implicit_role_assignments),
    saml_connection_implicit_role_assignments: c.saml_connection_implicit_role_assignments.map(
      (r) => ({ role_id: gatehouseRoleId(r.role_id) }),
    ),
    allow_idp_initiated: c.allow_idp_initiated,
  };
}

/**
 * The claims a source's OIDC mapping names for the fields Gatehouse reads, the others at their
 * defaults (whole, so that importing it again finds it unchanged); null when it names none. The
 * source's mapping is free-form: keys Gatehouse does not read and values that are not claim
 * names are left out.
 */
function claimMapping(mapping: unknown): OidcAttributeMapping | null {
  if (typeof mapping !== 'object' || mapping === null) return null;
  const given = mapping as Record<string, unknown>;
  const picked = Object.keys(DEFAULT_OIDC_ATTRIBUTE_MAPPING).filter(
    (key) => typeof given[key] === 'string' && given[key] !== '',
  );
  if (picked.length === 0) return null;
  return {
    ...DEFAULT_OIDC_ATTRIBUTE_MAPPING,
    ...Object.fromEntries(picked.map((key) => [key, given[key] as string])),
  };
}

function oidcInput(c: OidcConnection): OidcInput {
  const mapping = claimMapping(c.attribute_mapping);
  return {
    display_name: c.display_name,
    identity_provider: c.identity_provider,
    ...(c.issuer ? { issuer: c.issuer } : {}),
    ...(c.client_id ? { client_id: c.client_id } : {}),
    // As stored, so that importing it again finds it unchanged.
    ...(c.custom_scopes ? { custom_scopes: normalizeScopes(c.custom_scopes) } : {}),
    ...(mapping ? { attribute_mapping: mapping } : {}),
    oidc_group_implicit_role_assignments: groupRoles(c.oidc_group_implicit_role_assignments),
  };
}

/**
 * Creates a SAML connection with its id, or brings the one with that id up to date; certificates
 * it lacks are added, none removed. The IdP must then be given Gatehouse's ACS URL and entity ID.
 *
 * @example
 * const result = await importSamlConnection(ctx, project, connectionFromTheSource);
 */
export async function importSamlConnection(
  ctx: Context,
  project: Project,
  c: SamlConnection,
): Promise<ImportOutcome> {
  const refusal = await idRefusal(
    ctx,
    project,
    'saml-connection',
    'sso_connections',
    c.connection_id,
  );
  if (refusal) return skipped(refusal);
  const input = samlInput(c);
  const found = await getConnection(ctx, project, c.organization_id, c.connection_id);
  const current = isFailure(found) ? null : found.connection;
  if (current && !('acs_url' in current))
    return skipped(`${c.connection_id} is an OIDC connection here`);
  const have = new Set(
    (current?.verification_certificates ?? []).map((v) => pemBody(v.certificate)),
  );
  const missing = c.verification_certificates
    .map((v) => v.certificate)
    .filter((pem) => !have.has(pemBody(pem)));
  if (current && missing.length === 0 && sameFields(current, input))
    return { outcome: 'unchanged' };
  const [first, ...rest] = missing;
  const withFirst = first === undefined ? input : { ...input, x509_certificate: first };
  const saved = current
    ? await updateSamlConnection(ctx, project, c.organization_id, c.connection_id, withFirst)
    : await createSamlConnection(
        ctx,
        project,
        c.organization_id,
        withFirst,
        'host',
        c.connection_id,
      );
  if (isFailure(saved)) return skipped(`${saved.failure}: ${saved.message}`);
  for (const pem of rest) {
    const added = await updateSamlConnection(ctx, project, c.organization_id, c.connection_id, {
      x509_certificate: pem,
    });
    if (isFailure(added)) return { outcome: current ? 'updated' : 'created', note: added.message };
  }
  return {
    outcome: current ? 'updated' : 'created',
    ...(current ? {} : { note: "give the IdP Gatehouse's ACS URL and entity ID" }),
  };
}

/**
 * Creates an OIDC connection with its id, or brings the one with that id up to date. The client
 * secret never leaves the source: a connection without one here says so in its note.
 *
 * @example
 * const result = await importOidcConnection(ctx, project, connectionFromTheSource);
 */
export async function importOidcConnection(
  ctx: Context,
  project: Project,
  c: OidcConnection,
): Promise<ImportOutcome> {
  const refusal = await idRefusal(
    ctx,
    project,
    'oidc-connection',
    'sso_connections',
    c.connection_id,
  );
  if (refusal) return skipped(refusal);
  const input = oidcInput(c);
  const found = await getConnection(ctx, project, c.organization_id, c.connection_id);
  const current = isFailure(found) ? null : found.connection;
  if (current && 'acs_url' in current)
    return skipped(`${c.connection_id} is a SAML connection here`);
  const note = 'set its client secret with gatehouse sso update (the source never shows it)';
  if (current && sameFields(current, input)) {
    return current.client_secret_set ? { outcome: 'unchanged' } : { outcome: 'unchanged', note };
  }
  const saved = current
    ? await updateOidcConnection(ctx, project, c.organization_id, c.connection_id, input)
    : await createOidcConnection(ctx, project, c.organization_id, input, 'host', c.connection_id);
  if (isFailure(saved)) return skipped(`${saved.failure}: ${saved.message}`);
  const outcome = current ? 'updated' : 'created';
  return saved.connection.client_secret_set ? { outcome } : { outcome, note };
}
