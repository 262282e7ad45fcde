/** Changing a project's RBAC policy, checking role ids against it, and enforcing it. */
import type {
  EmailRoleAssignment,
  RbacPermission,
  RbacPolicy,
  RbacResource,
  RbacRole,
} from '@gatehouse/protocol';
import {
  RBAC_ID_PATTERN,
  rbacPolicyFields,
  rbacResourceFields,
  rbacRoleFields,
} from '@gatehouse/protocol/endpoints';
import type { Context, Db } from '../../context.js';
import { allOrNothing, checkInput, isFailure, type Failure } from '../../result.js';
import type { Project } from '../projects/service.js';
import type { Need, Permission } from './builtin-actions.js';
import {
  DEFAULT_RBAC_POLICY,
  effectivePolicy,
  grantingRoles,
  isAllowed,
  isBuiltInResource,
  isBuiltInRole,
  policyProblem,
  type CustomPolicy,
} from './policy.js';
import {
  customPolicyOf,
  lockCustomPolicy,
  removeRolesFromMembers,
  writeCustomPolicy,
} from './store.js';
import {
  builtInResource,
  builtInRole,
  invalidPolicy,
  notInPolicy,
  sessionAuthorizationError,
  sessionTenancyError,
  unauthorizedAction,
  unknownRole,
} from './errors.js';

/** A role or resource as the management API takes it (the description may be left out). */
export interface RoleInput {
  description?: string | undefined;
  permissions: RbacPermission[];
}
export interface ResourceInput {
  description?: string | undefined;
  actions: string[];
}

/**
 * The project's whole policy: what bootstrap publishes and the server enforces.
 *
 * @example
 * const policy = await projectPolicy(ctx.db, project.id);
 */
export async function projectPolicy(db: Db, projectId: string): Promise<RbacPolicy> {
  return effectivePolicy(await customPolicyOf(db, projectId));
}

/**
 * Refuses role ids the project's policy does not define (roles of another project included).
 *
 * @example
 * const refused = await checkRoleIds(ctx.db, project.id, ['billing']);
 */
export async function checkRoleIds(
  db: Db,
  projectId: string,
  roleIds: readonly string[],
): Promise<Failure | null> {
  if (roleIds.length === 0) return null;
  const known = new Set((await projectPolicy(db, projectId)).roles.map((r) => r.role_id));
  const unknown = roleIds.find((id) => !known.has(id));
  return unknown === undefined ? null : unknownRole(unknown);
}

/**
 * Checks role ids about to be stored on members inside the transaction that stores them, under
 * the policy's lock: a concurrent deletion of the role either sees the new rows (and removes
 * them) or happens after this transaction commits.
 *
 * @example
 * const refused = await checkRoleIdsForAssignment(trx, project.id, ['billing'], ctx.now());
 */
export async function checkRoleIdsForAssignment(
  trx: Db,
  projectId: string,
  roleIds: readonly string[],
  now: number,
): Promise<Failure | null> {
  if (roleIds.length === 0) return null;
  const known = new Set(
    effectivePolicy(await lockCustomPolicy(trx, projectId, now)).roles.map((r) => r.role_id),
  );
  const unknown = roleIds.find((id) => !known.has(id));
  return unknown === undefined ? null : unknownRole(unknown);
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

/** An organization's e-mail role rules: real domains and roles of the project. */
export async function checkEmailRoleRules(
  db: Db,
  projectId: string,
  rules: readonly EmailRoleAssignment[] | undefined,
): Promise<Failure | null> {
  if (!rules || rules.length === 0) return null;
  const bad = rules.find((r) => !DOMAIN.test(r.domain.trim()));
  if (bad) return invalidPolicy(`${bad.domain} is not an e-mail domain.`);
  return checkRoleIds(
    db,
    projectId,
    rules.map((r) => r.role_id),
  );
}

/**
 * Refuses a member whose roles do not grant `action` on `resourceId` under the project's
 * current policy.
 *
 * @example
 * const refused = await authorize(ctx.db, project.id, ['member'], 'stytch.member', 'delete');
 */
export async function authorize(
  db: Db,
  projectId: string,
  roles: readonly string[],
  resourceId: string,
  action: string,
): Promise<Failure | null> {
  const policy = await projectPolicy(db, projectId);
  return isAllowed(policy, roles, resourceId, action)
    ? null
    : unauthorizedAction(resourceId, action);
}

/**
 * The first of the needs that the roles meet by none of its permissions, under the project's
 * current policy (read once), or null when they meet every one.
 *
 * @example
 * const unmet = await unmetNeed(ctx.db, project.id, roles, organizationUpdateNeeds(body));
 */
export async function unmetNeed(
  db: Db,
  projectId: string,
  roles: readonly string[],
  needs: readonly Need[],
): Promise<Permission | null> {
  if (needs.length === 0) return null;
  const policy = await projectPolicy(db, projectId);
  const unmet = needs.find((need) => !need.some((p) => isAllowed(policy, roles, ...p)));
  return unmet?.[0] ?? null;
}

/** What a host backend asks of a session's member: may they do `action` on `resource_id` there. */
export interface AuthorizationCheck {
  organization_id: string;
  resource_id: string;
  action: string;
}

/**
 * The verdict of a host backend's `authorization_check` on a session (the management API's
 * `sessions.authenticate`): the roles that grant the action, or the provider's refusals: 403
 * `session_authorization_error` when none does, 403 `session_authorization_tenancy_error` when
 * the session is of another organization than the one the check names.
 *
 * @example
 * const verdict = unwrap(await authorizationVerdict(ctx.db, project.id, session.member_session, check));
 */
export async function authorizationVerdict(
  db: Db,
  projectId: string,
  session: { organization_id: string; roles: readonly string[] },
  check: AuthorizationCheck,
): Promise<{ authorized: true; granting_roles: string[] } | Failure> {
  if (session.organization_id !== check.organization_id) return sessionTenancyError();
  const policy = await projectPolicy(db, projectId);
  const granting = grantingRoles(policy, session.roles, check.resource_id, check.action);
  return granting.length > 0
    ? { authorized: true, granting_roles: granting }
    : sessionAuthorizationError(check.resource_id, check.action);
}

/** Path ids follow the body's id rule (docs/protocol.md: role and resource ids). */
function badId(kind: 'role' | 'resource', id: string): Failure | null {
  return RBAC_ID_PATTERN.test(id)
    ? null
    : invalidPolicy(
        `The ${kind} id must be 1 to 64 letters, digits, _ - . or :, starting with a letter or digit.`,
      );
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

function toRole(roleId: string, input: RoleInput): RbacRole {
  return {
    role_id: roleId,
    description: input.description ?? '',
    permissions: input.permissions.map((p) => ({
      resource_id: p.resource_id,
      actions: unique(p.actions),
    })),
  };
}

function toResource(resourceId: string, input: ResourceInput): RbacResource {
  return {
    resource_id: resourceId,
    description: input.description ?? '',
    actions: unique(input.actions),
  };
}

/**
 * Applies `change` to the project's own policy under its lock, checks the result, takes deleted
 * roles from members, and returns the whole new policy; all or nothing.
 */
async function changePolicy(
  ctx: Context,
  project: Project,
  change: (current: CustomPolicy) => CustomPolicy | Failure,
): Promise<RbacPolicy | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const current = await lockCustomPolicy(trx, project.id, ctx.now());
    const next = change(current);
    if ('failure' in next) return next;
    const problem = policyProblem(next);
    if (problem) return invalidPolicy(problem);
    const gone = current.roles
      .map((r) => r.role_id)
      .filter((id) => !isBuiltInRole(id) && !next.roles.some((r) => r.role_id === id));
    await removeRolesFromMembers(trx, project.id, gone);
    await writeCustomPolicy(trx, project.id, next, ctx.now());
    return effectivePolicy(next);
  });
}

/** A whole policy as `PUT /v1/b2b/rbac/policy` and `gatehouse rbac set` take it. */
export interface PolicyInput {
  roles: (RoleInput & { role_id: string })[];
  resources: (ResourceInput & { resource_id: string })[];
}

/**
 * Replaces the project's own roles and resources. The policy must pass the management API's
 * schema (ids and actions well formed, lists not too long), checked here so that every way in
 * refuses the same input; then it must be consistent (no id twice, every permission naming an
 * existing resource and its actions). Built-in resources may be listed unchanged (as `GET` shows
 * them) and are skipped; `member` and `admin` keep their built-in permissions.
 *
 * @example
 * await setPolicy(ctx, project, { roles: [...], resources: [...] });
 */
export async function setPolicy(
  ctx: Context,
  project: Project,
  policy: PolicyInput,
): Promise<RbacPolicy | Failure> {
  const input = checkInput(rbacPolicyFields, policy);
  if (isFailure(input)) return input;
  const resources: RbacResource[] = [];
  for (const r of input.resources) {
    if (!isBuiltInResource(r.resource_id)) {
      resources.push(toResource(r.resource_id, r));
      continue;
    }
    const builtIn = DEFAULT_RBAC_POLICY.resources.find((b) => b.resource_id === r.resource_id);
    const same =
      builtIn !== undefined &&
      unique(r.actions).length === builtIn.actions.length &&
      r.actions.every((a) => builtIn.actions.includes(a));
    if (!same) return builtInResource(r.resource_id);
  }
  const roles = input.roles.map((r) => toRole(r.role_id, r));
  return changePolicy(ctx, project, () => ({ roles, resources }));
}

/** Creates or replaces one role; for `member` and `admin`, what they add to their built-in permissions. */
export async function setRole(
  ctx: Context,
  project: Project,
  roleId: string,
  given: RoleInput,
): Promise<RbacPolicy | Failure> {
  const refused = badId('role', roleId);
  if (refused) return refused;
  const input = checkInput(rbacRoleFields, given);
  if (isFailure(input)) return input;
  const role = toRole(roleId, input);
  return changePolicy(ctx, project, (current) => ({
    ...current,
    roles: current.roles.some((r) => r.role_id === roleId)
      ? current.roles.map((r) => (r.role_id === roleId ? role : r))
      : [...current.roles, role],
  }));
}

/** Deletes a custom role; members holding it lose it. */
export async function deleteRole(
  ctx: Context,
  project: Project,
  roleId: string,
): Promise<RbacPolicy | Failure> {
  if (isBuiltInRole(roleId)) return builtInRole(roleId);
  return changePolicy(ctx, project, (current) =>
    current.roles.some((r) => r.role_id === roleId)
      ? { ...current, roles: current.roles.filter((r) => r.role_id !== roleId) }
      : notInPolicy('role', roleId),
  );
}

/** Creates or replaces one custom resource; refused if a role uses an action it would drop. */
export async function setResource(
  ctx: Context,
  project: Project,
  resourceId: string,
  given: ResourceInput,
): Promise<RbacPolicy | Failure> {
  if (isBuiltInResource(resourceId)) return builtInResource(resourceId);
  const refused = badId('resource', resourceId);
  if (refused) return refused;
  const input = checkInput(rbacResourceFields, given);
  if (isFailure(input)) return input;
  const resource = toResource(resourceId, input);
  return changePolicy(ctx, project, (current) => ({
    ...current,
    resources: current.resources.some((r) => r.resource_id === resourceId)
      ? current.resources.map((r) => (r.resource_id === resourceId ? resource : r))
      : [...current.resources, resource],
  }));
}

/** Deletes a custom resource that no role refers to. */
export async function deleteResource(
  ctx: Context,
  project: Project,
  resourceId: string,
): Promise<RbacPolicy | Failure> {
  if (isBuiltInResource(resourceId)) return builtInResource(resourceId);
  return changePolicy(ctx, project, (current) => {
    if (!current.resources.some((r) => r.resource_id === resourceId)) {
      return notInPolicy('resource', resourceId);
    }
    const user = current.roles.find((r) => r.permissions.some((p) => p.resource_id === resourceId));
    if (user) {
      return invalidPolicy(
        `The resource ${resourceId} cannot be deleted: the role ${user.role_id} refers to it.`,
      );
    }
    return { ...current, resources: current.resources.filter((r) => r.resource_id !== resourceId) };
  });
}
