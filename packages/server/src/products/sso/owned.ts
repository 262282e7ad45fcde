/**
 * What every SSO connection write starts from: the organization's own connection (or a failure
 * that does not say whether it exists elsewhere), a new row, and the check of group role rules.
 */
import type {
  ConnectionRoleAssignment,
  GroupRoleAssignment,
  SsoConnectionKind,
} from '@gatehouse/protocol';
import { isoAt, type Db } from '../../context.js';
import { newId } from '../../crypto/random.js';
import type { SsoConnectionsTable } from '../../store/schema.js';
import type { Failure } from '../../result.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { refuseRoleGrants, type Grantor } from '../../tenancy/rbac/grants.js';
import { checkRoleIds, checkRoleIdsForAssignment } from '../../tenancy/rbac/service.js';
import { connectionNotInOrganization, organizationNotInProject } from './errors.js';
import type { OidcSettings, SamlSettings } from './connections.js';
import { connectionRow, touchConnectionRow } from './store.js';

/**
 * Group rules may name only roles of the project's policy; a member may change them only as
 * `refuseRoleGrants` allows (roles they hold, with `update.settings.implicit-roles`).
 */
export async function checkGroupRoles(
  db: Db,
  projectId: string,
  grantor: Grantor,
  before: readonly GroupRoleAssignment[],
  after: readonly GroupRoleAssignment[] | undefined,
): Promise<Failure | null> {
  if (after === undefined) return null;
  const unknown = await checkRoleIds(
    db,
    projectId,
    after.map((a) => a.role_id),
  );
  if (unknown) return unknown;
  const rules = (list: readonly GroupRoleAssignment[]) =>
    list.map((a) => ({ key: a.group, role_id: a.role_id }));
  return refuseRoleGrants(db, projectId, grantor, rules(before), rules(after));
}

/**
 * A connection's roles for everyone who signs in through it, checked as group rules are: roles
 * of the project's policy, and for a member only as `refuseRoleGrants` allows.
 */
export async function checkConnectionRoles(
  db: Db,
  projectId: string,
  grantor: Grantor,
  before: readonly ConnectionRoleAssignment[],
  after: readonly ConnectionRoleAssignment[] | undefined,
  now: number,
): Promise<Failure | null> {
  if (after === undefined) return null;
  // Under the policy's lock: the update stores these roles on the connection's members.
  const unknown = await checkRoleIdsForAssignment(
    db,
    projectId,
    after.map((a) => a.role_id),
    now,
  );
  if (unknown) return unknown;
  // A connection-wide rule matches everyone: its key is empty.
  const rules = (list: readonly ConnectionRoleAssignment[]) =>
    list.map((a) => ({ key: '', role_id: a.role_id }));
  return refuseRoleGrants(db, projectId, grantor, rules(before), rules(after));
}

/** A connection of the organization, or a failure that does not say whether it exists elsewhere. */
export async function ownConnection(
  db: Db,
  project: Project,
  organizationId: string,
  connectionId: string,
  kind?: SsoConnectionKind,
): Promise<SsoConnectionsTable | Failure> {
  const row = await connectionRow(db, project.id, connectionId);
  if (!row || row.organization_id !== organizationId || (kind && row.kind !== kind)) {
    return connectionNotInOrganization();
  }
  return row;
}

/**
 * `ownConnection` in a transaction that writes the connection, its row locked first (a write
 * that changes nothing), so that concurrent changes of one connection queue rather than each
 * writing its settings over the other's.
 */
export async function lockConnection(
  trx: Db,
  project: Project,
  organizationId: string,
  connectionId: string,
  kind?: SsoConnectionKind,
): Promise<SsoConnectionsTable | Failure> {
  await touchConnectionRow(trx, project.id, connectionId);
  return ownConnection(trx, project, organizationId, connectionId, kind);
}

/** Refuses an organization id that is not of the project. */
export async function checkOrganization(
  db: Db,
  project: Project,
  organizationId: string,
): Promise<Failure | null> {
  return (await organizationById(db, project.id, organizationId))
    ? null
    : organizationNotInProject();
}

/**
 * A pending connection of the organization, not stored yet; `id` keeps one from another system
 * (an import), a new one by default.
 */
export function newRow(
  project: Project,
  organizationId: string,
  kind: SsoConnectionKind,
  displayName: string,
  identityProvider: string,
  settings: SamlSettings | OidcSettings,
  now: number,
  id?: string,
): SsoConnectionsTable {
  return {
    id: id ?? newId(kind === 'saml' ? 'saml-connection' : 'oidc-connection', project.environment),
    project_id: project.id,
    organization_id: organizationId,
    kind,
    display_name: displayName,
    identity_provider: identityProvider,
    status: 'pending',
    settings: JSON.stringify(settings),
    secret_encrypted: null,
    created_at: isoAt(now),
    updated_at: isoAt(now),
  };
}
