/**
 * Creating and changing OIDC connections. Discovery runs before anything is saved, so a provider
 * that cannot be reached changes nothing; the save runs in one transaction with the
 * organization's list of active connections.
 */
import type { OidcConnection } from '@gatehouse/protocol';
import type { z } from 'zod';
import { oidcConnectionFields } from '@gatehouse/protocol/endpoints';
import type { Context, Db } from '../../context.js';
import type { SsoConnectionsTable } from '../../store/schema.js';
import { allOrNothing, checkInput, isFailure, type Failure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import type { Grantor } from '../../tenancy/rbac/grants.js';
import { nextUpdatedAt, staleUpdate } from '../../tenancy/updated-at.js';
import {
  EMPTY_OIDC_SETTINGS,
  oidcSettings,
  oidcStatus,
  ssoUrls,
  toOidcConnection,
  type OidcSettings,
} from './connections.js';
import { discoverProvider } from '../../auth/federated/oidc-discovery.js';
import { normalizeScopes } from './oidc-mapping.js';
import {
  checkGroupRoles,
  checkOrganization,
  lockConnection,
  newRow,
  ownConnection,
} from './owned.js';
import { refreshOrganizationConnections, insertConnection, updateConnectionRow } from './store.js';

export type OidcInput = z.output<typeof oidcConnectionFields>;

/** The provider's endpoints as discovery found them, and the issuer it was asked about. */
interface Discovered {
  /** The issuer discovery ran for: the one given, or the one stored when the change began. */
  askedFor: string;
  /** Whether the change named that issuer (rather than keeping the stored one). */
  given: boolean;
  endpoints: Pick<
    OidcSettings,
    'issuer' | 'authorization_url' | 'token_url' | 'userinfo_url' | 'jwks_url'
  >;
}

/**
 * Discovery for a change, before its transaction (it waits on the provider): it runs whenever
 * the issuer, client id or secret change, so a provider that cannot be reached changes nothing.
 * Null when the change needs none.
 */
async function discover(
  ctx: Context,
  row: SsoConnectionsTable | null,
  input: OidcInput,
): Promise<Discovered | null | Failure> {
  const current = row ? oidcSettings(row) : EMPTY_OIDC_SETTINGS;
  const issuer = input.issuer ?? current.issuer;
  const rediscover =
    issuer !== '' &&
    (input.issuer !== undefined ||
      input.client_id !== undefined ||
      input.client_secret !== undefined);
  if (!rediscover) return null;
  const secret =
    input.client_secret ?? (row?.secret_encrypted ? ctx.box.open(row.secret_encrypted) : '');
  const config = await discoverProvider(issuer, input.client_id ?? current.client_id, secret);
  if (isFailure(config)) return config;
  const metadata = config.serverMetadata();
  return {
    askedFor: issuer,
    given: input.issuer !== undefined,
    endpoints: {
      issuer: metadata.issuer,
      authorization_url: metadata.authorization_endpoint ?? '',
      token_url: metadata.token_endpoint ?? '',
      userinfo_url: metadata.userinfo_endpoint ?? '',
      jwks_url: metadata.jwks_uri ?? '',
    },
  };
}

/**
 * The OIDC settings after a change, from the row as it is now (locked, in the change's
 * transaction), so that a concurrent change of other fields is kept.
 */
async function nextOidc(
  ctx: Context,
  db: Db,
  projectId: string,
  row: SsoConnectionsTable | null,
  input: OidcInput,
  grantor: Grantor,
  discovered: Discovered | null,
): Promise<{ settings: OidcSettings; secret: string | null } | Failure> {
  const current = row ? oidcSettings(row) : EMPTY_OIDC_SETTINGS;
  const invalid = await checkGroupRoles(
    db,
    projectId,
    grantor,
    current.group_roles,
    input.oidc_group_implicit_role_assignments,
  );
  if (invalid) return invalid;
  const secret =
    input.client_secret ?? (row?.secret_encrypted ? ctx.box.open(row.secret_encrypted) : null);
  // Endpoints found for the stored issuer are kept only while it is still the one stored: a
  // concurrent change of the issuer brought its own.
  const endpoints =
    discovered && (discovered.given || discovered.askedFor === current.issuer)
      ? discovered.endpoints
      : {};
  const settings: OidcSettings = {
    ...current,
    ...(input.client_id !== undefined ? { client_id: input.client_id } : {}),
    ...(input.custom_scopes !== undefined
      ? { custom_scopes: normalizeScopes(input.custom_scopes) }
      : {}),
    ...(input.attribute_mapping !== undefined
      ? { attribute_mapping: { ...current.attribute_mapping, ...input.attribute_mapping } }
      : {}),
    ...(input.oidc_group_implicit_role_assignments !== undefined
      ? { group_roles: input.oidc_group_implicit_role_assignments }
      : {}),
    ...(input.sign_in_enabled !== undefined ? { sign_in_enabled: input.sign_in_enabled } : {}),
    ...endpoints,
  };
  return { settings, secret };
}

async function saveOidc(
  ctx: Context,
  db: Db,
  row: SsoConnectionsTable,
  input: OidcInput,
  next: { settings: OidcSettings; secret: string | null },
): Promise<OidcConnection> {
  const now = ctx.now();
  const updated: SsoConnectionsTable = {
    ...row,
    display_name: input.display_name ?? row.display_name,
    identity_provider: input.identity_provider ?? row.identity_provider,
    settings: JSON.stringify(next.settings),
    secret_encrypted:
      input.client_secret !== undefined ? ctx.box.seal(input.client_secret) : row.secret_encrypted,
    status: oidcStatus(next.settings, next.secret !== null && next.secret !== ''),
    // Strictly later, so that a screen loaded before this change is stale after it.
    updated_at: nextUpdatedAt(row.updated_at, now),
  };
  await updateConnectionRow(db, row.id, {
    display_name: updated.display_name,
    identity_provider: updated.identity_provider,
    settings: updated.settings,
    secret_encrypted: updated.secret_encrypted,
    status: updated.status,
    updated_at: updated.updated_at,
  });
  await refreshOrganizationConnections(db, row.project_id, row.organization_id, now);
  return toOidcConnection(updated, ssoUrls(ctx.config.publicUrl));
}

/**
 * Creates an OIDC connection; with issuer, client id and secret it is active at once. A member
 * (`grantor`) may map groups only as `refuseRoleGrants` allows; the host (default) to any role.
 * `connectionId` keeps an id from another system (an import).
 */
export async function createOidcConnection(
  ctx: Context,
  project: Project,
  organizationId: string,
  given: OidcInput,
  grantor: Grantor = 'host',
  connectionId?: string,
): Promise<{ connection: OidcConnection } | Failure> {
  // The management API's schema, for the CLI and the admin interface too.
  const input = checkInput(oidcConnectionFields, given);
  if (isFailure(input)) return input;
  const missing = await checkOrganization(ctx.db, project, organizationId);
  if (missing) return missing;
  const discovered = await discover(ctx, null, input);
  if (isFailure(discovered)) return discovered;
  return allOrNothing(ctx.db, async (trx) => {
    const next = await nextOidc(ctx, trx, project.id, null, input, grantor, discovered);
    if (isFailure(next)) return next;
    const row = newRow(
      project,
      organizationId,
      'oidc',
      input.display_name ?? 'OIDC',
      input.identity_provider ?? 'generic',
      EMPTY_OIDC_SETTINGS,
      ctx.now(),
      connectionId,
    );
    await insertConnection(trx, row);
    return { connection: await saveOidc(ctx, trx, row, input, next) };
  });
}

/** Changes an OIDC connection; group rules as for `createOidcConnection`. */
export async function updateOidcConnection(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
  given: OidcInput,
  grantor: Grantor = 'host',
): Promise<{ connection: OidcConnection } | Failure> {
  const input = checkInput(oidcConnectionFields, given);
  if (isFailure(input)) return input;
  const existing = await ownConnection(ctx.db, project, organizationId, connectionId, 'oidc');
  if (isFailure(existing)) return existing;
  const discovered = await discover(ctx, existing, input);
  if (isFailure(discovered)) return discovered;
  return allOrNothing(ctx.db, async (trx) => {
    // Changes of one connection queue, so that none is lost to another's read of its settings,
    // and of two changes loaded from the same screen the second is stale.
    const row = await lockConnection(trx, project, organizationId, connectionId, 'oidc');
    if (isFailure(row)) return row;
    if (input.updated_at !== undefined && input.updated_at !== row.updated_at) {
      return staleUpdate('connection');
    }
    const next = await nextOidc(ctx, trx, project.id, row, input, grantor, discovered);
    if (isFailure(next)) return next;
    return { connection: await saveOidc(ctx, trx, row, input, next) };
  });
}
