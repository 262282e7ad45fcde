/**
 * Managing SSO connections: create, read, change and delete SAML and OIDC connections of an
 * organization. Every write runs in one transaction with the organization's list of active
 * connections, so the organization object never names a connection that is not usable.
 */
import type {
  Ack,
  ConnectionRoleAssignment,
  Environment,
  OidcConnection,
  SamlConnection,
  SsoConnectionsResult,
} from '@gatehouse/protocol';
import type { z } from 'zod';
import { samlConnectionFields, samlMetadataFields } from '@gatehouse/protocol/endpoints';
import { isoAt, type Context, type Db } from '../../context.js';
import { newId } from '../../crypto/random.js';
import type { SsoConnectionsTable } from '../../store/schema.js';
import type { Project } from '../../tenancy/projects/service.js';
import type { Grantor } from '../../tenancy/rbac/grants.js';
import { replaceConnectionRoles } from '../../tenancy/members/store-roles.js';
import { nextUpdatedAt, staleUpdate } from '../../tenancy/updated-at.js';
import { allOrNothing, checkInput, fail, isFailure, type Failure } from '../../result.js';
import {
  EMPTY_SAML_SETTINGS,
  parseCertificate,
  samlSettings,
  samlStatus,
  ssoUrls,
  toOidcConnection,
  toSamlConnection,
  type SamlSettings,
} from './connections.js';
import { readIdpMetadata } from './metadata.js';
import { issuerUrl } from '../../auth/federated/oidc-discovery.js';
import {
  checkConnectionRoles,
  checkGroupRoles,
  checkOrganization,
  lockConnection,
  newRow,
  ownConnection,
} from './owned.js';
import {
  certificateRowsOf,
  connectionRowsOf,
  deleteCertificateRow,
  deleteConnectionRow,
  insertCertificate,
  insertConnection,
  refreshOrganizationConnections,
  updateConnectionRow,
} from './store.js';
import {
  certificateExpired,
  certificateNotFound,
  notACertificate,
  oneMetadataSource,
} from './errors.js';

export { usableForSignIn } from './connections.js';
export { createOidcConnection, updateOidcConnection, type OidcInput } from './oidc-connections.js';

export type SamlInput = z.output<typeof samlConnectionFields>;
export type SamlMetadataInput = z.output<typeof samlMetadataFields>;

/** An IdP URL: https, or http on a loopback host (an IdP on the same machine). */
function checkIdpUrl(value: string, field: string): Failure | null {
  if (value === '') return null;
  const url = issuerUrl(value);
  return isFailure(url)
    ? fail('invalid_request', `The ${field} must be an https URL (http only on loopback hosts).`)
    : null;
}

async function wireOf(
  ctx: Context,
  db: Db,
  row: SsoConnectionsTable,
): Promise<SamlConnection | OidcConnection> {
  const urls = ssoUrls(ctx.config.publicUrl);
  if (row.kind === 'oidc') return toOidcConnection(row, urls);
  return toSamlConnection(row, await certificateRowsOf(db, [row.id]), urls);
}

/** The organization's connections, SAML and OIDC apart. */
export async function listConnections(
  ctx: Context,
  project: Project,
  organizationId: string,
): Promise<Omit<SsoConnectionsResult, keyof Ack> | Failure> {
  const missing = await checkOrganization(ctx.db, project, organizationId);
  if (missing) return missing;
  const rows = await connectionRowsOf(ctx.db, project.id, organizationId);
  const certificates = await certificateRowsOf(
    ctx.db,
    rows.filter((r) => r.kind === 'saml').map((r) => r.id),
  );
  const urls = ssoUrls(ctx.config.publicUrl);
  return {
    saml_connections: rows
      .filter((r) => r.kind === 'saml')
      .map((r) => toSamlConnection(r, certificates, urls)),
    oidc_connections: rows.filter((r) => r.kind === 'oidc').map((r) => toOidcConnection(r, urls)),
    external_connections: [],
  };
}

/** One connection of the organization. */
export async function getConnection(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
): Promise<{ connection: SamlConnection | OidcConnection } | Failure> {
  const row = await ownConnection(ctx.db, project, organizationId, connectionId);
  if (isFailure(row)) return row;
  return { connection: await wireOf(ctx, ctx.db, row) };
}

/** A connection's role list with each role once, in the order given. */
function uniqueRoles(
  list: readonly ConnectionRoleAssignment[] | undefined,
): ConnectionRoleAssignment[] | undefined {
  return list && [...new Set(list.map((a) => a.role_id))].map((role_id) => ({ role_id }));
}

/** Applies SAML fields to a stored connection (in a transaction) and recomputes its status. */
async function applySaml(
  ctx: Context,
  db: Db,
  row: SsoConnectionsTable,
  input: SamlInput,
  extraCertificates: string[],
  env: Environment,
  grantor: Grantor = 'host',
): Promise<SamlConnection | Failure> {
  const current = samlSettings(row);
  const connectionRoles = uniqueRoles(input.saml_connection_implicit_role_assignments);
  const settings: SamlSettings = {
    ...current,
    ...(input.idp_entity_id !== undefined ? { idp_entity_id: input.idp_entity_id } : {}),
    ...(input.idp_sso_url !== undefined ? { idp_sso_url: input.idp_sso_url } : {}),
    ...(input.allow_idp_initiated !== undefined
      ? { allow_idp_initiated: input.allow_idp_initiated }
      : {}),
    ...(input.saml_group_implicit_role_assignments !== undefined
      ? { group_roles: input.saml_group_implicit_role_assignments }
      : {}),
    ...(connectionRoles !== undefined ? { connection_roles: connectionRoles } : {}),
    ...(input.sign_in_enabled !== undefined ? { sign_in_enabled: input.sign_in_enabled } : {}),
    attribute_mapping: { ...current.attribute_mapping, ...input.attribute_mapping },
  };
  const invalid =
    checkIdpUrl(settings.idp_sso_url, 'idp_sso_url') ??
    (await checkGroupRoles(
      db,
      row.project_id,
      grantor,
      current.group_roles,
      input.saml_group_implicit_role_assignments,
    )) ??
    (await checkConnectionRoles(
      db,
      row.project_id,
      grantor,
      current.connection_roles,
      connectionRoles,
      ctx.now(),
    ));
  if (invalid) return invalid;

  const now = ctx.now();
  const pems = [
    ...(input.x509_certificate !== undefined ? [input.x509_certificate] : []),
    ...extraCertificates,
  ];
  const existing = await certificateRowsOf(db, [row.id]);
  const known = new Set(existing.map((c) => c.certificate));
  for (const pem of pems) {
    const cert = parseCertificate(pem);
    if (!cert) return notACertificate();
    if (cert.expiresAt.getTime() <= now) {
      return certificateExpired();
    }
    if (known.has(cert.pem)) continue;
    known.add(cert.pem);
    await insertCertificate(db, {
      id: newId('saml-certificate', env),
      connection_id: row.id,
      certificate: cert.pem,
      issuer: cert.issuer,
      expires_at: cert.expiresAt.toISOString(),
      created_at: isoAt(now),
    });
  }
  const updated: SsoConnectionsTable = {
    ...row,
    display_name: input.display_name ?? row.display_name,
    identity_provider: input.identity_provider ?? row.identity_provider,
    settings: JSON.stringify(settings),
    status: samlStatus(settings, known.size),
    // Strictly later, so that a screen loaded before this change is stale after it.
    updated_at: nextUpdatedAt(row.updated_at, now),
  };
  await updateConnectionRow(db, row.id, {
    display_name: updated.display_name,
    identity_provider: updated.identity_provider,
    settings: updated.settings,
    status: updated.status,
    updated_at: updated.updated_at,
  });
  if (connectionRoles !== undefined) {
    await replaceConnectionRoles(
      db,
      row.organization_id,
      row.id,
      connectionRoles.map((a) => a.role_id),
    );
  }
  await refreshOrganizationConnections(db, row.project_id, row.organization_id, now);
  return toSamlConnection(
    updated,
    await certificateRowsOf(db, [row.id]),
    ssoUrls(ctx.config.publicUrl),
  );
}

/**
 * Creates a SAML connection; with the IdP fields given it is active at once. A member
 * (`grantor`) may map groups only as `refuseRoleGrants` allows; the host (default) to any role.
 * `connectionId` keeps an id from another system (an import).
 */
export async function createSamlConnection(
  ctx: Context,
  project: Project,
  organizationId: string,
  given: SamlInput,
  grantor: Grantor = 'host',
  connectionId?: string,
): Promise<{ connection: SamlConnection } | Failure> {
  // The management API's schema, for the CLI and the admin interface too.
  const input = checkInput(samlConnectionFields, given);
  if (isFailure(input)) return input;
  return allOrNothing(ctx.db, async (trx) => {
    const missing = await checkOrganization(trx, project, organizationId);
    if (missing) return missing;
    const row = newRow(
      project,
      organizationId,
      'saml',
      input.display_name ?? 'SAML',
      input.identity_provider ?? 'generic',
      EMPTY_SAML_SETTINGS,
      ctx.now(),
      connectionId,
    );
    await insertConnection(trx, row);
    const connection = await applySaml(ctx, trx, row, input, [], project.environment, grantor);
    return isFailure(connection) ? connection : { connection };
  });
}

/**
 * Changes a SAML connection; `x509_certificate` adds a certificate beside the ones it has. Group
 * rules as for `createSamlConnection`.
 */
export async function updateSamlConnection(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
  given: SamlInput,
  grantor: Grantor = 'host',
): Promise<{ connection: SamlConnection } | Failure> {
  const input = checkInput(samlConnectionFields, given);
  if (isFailure(input)) return input;
  return allOrNothing(ctx.db, async (trx) => {
    // Changes of one connection queue, so that none is lost to another's read of its settings.
    const row = await lockConnection(trx, project, organizationId, connectionId, 'saml');
    if (isFailure(row)) return row;
    if (input.updated_at !== undefined && input.updated_at !== row.updated_at) {
      return staleUpdate('connection');
    }
    const connection = await applySaml(ctx, trx, row, input, [], project.environment, grantor);
    return isFailure(connection) ? connection : { connection };
  });
}

/** Sets a SAML connection's IdP side from the IdP's metadata, given as a URL or as XML. */
export async function updateSamlFromMetadata(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
  given: SamlMetadataInput,
): Promise<{ connection: SamlConnection } | Failure> {
  const input = checkInput(samlMetadataFields, given);
  if (isFailure(input)) return input;
  if ((input.metadata_url === undefined) === (input.metadata_xml === undefined)) {
    return oneMetadataSource();
  }
  const existing = await ownConnection(ctx.db, project, organizationId, connectionId, 'saml');
  if (isFailure(existing)) return existing;
  const allowLoopback = project.environment === 'test';
  const metadata = await readIdpMetadata(input, allowLoopback, ctx.config.resolveHost);
  if (isFailure(metadata)) return metadata;
  return allOrNothing(ctx.db, async (trx) => {
    const row = await lockConnection(trx, project, organizationId, connectionId, 'saml');
    if (isFailure(row)) return row;
    const connection = await applySaml(
      ctx,
      trx,
      row,
      { idp_entity_id: metadata.entityId, idp_sso_url: metadata.ssoUrl },
      metadata.certificates,
      project.environment,
    );
    return isFailure(connection) ? connection : { connection };
  });
}

/** Removes one verification certificate; a connection left without one becomes pending. */
export async function deleteSamlCertificate(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
  certificateId: string,
): Promise<{ connection: SamlConnection } | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const row = await lockConnection(trx, project, organizationId, connectionId, 'saml');
    if (isFailure(row)) return row;
    if (!(await deleteCertificateRow(trx, row.id, certificateId))) {
      return certificateNotFound();
    }
    const connection = await applySaml(ctx, trx, row, {}, [], project.environment);
    return isFailure(connection) ? connection : { connection };
  });
}

/** Deletes a connection; the organization's default moves to another active one, if any. */
export async function deleteConnection(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
): Promise<{ connection_id: string } | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const row = await ownConnection(trx, project, organizationId, connectionId);
    if (isFailure(row)) return row;
    await deleteConnectionRow(trx, row.id);
    // The roles it gave everyone who signed in through it go with it.
    await replaceConnectionRoles(trx, organizationId, row.id, []);
    await refreshOrganizationConnections(trx, project.id, organizationId, ctx.now());
    return { connection_id: row.id };
  });
}

/** The SSO connections of an organization, for checks of settings that name them. */
export function organizationConnections(
  db: Db,
  projectId: string,
  organizationId: string,
): ReturnType<typeof connectionRowsOf> {
  return connectionRowsOf(db, projectId, organizationId);
}
