/**
 * Importing a project's RBAC policy from the provider (`gatehouse import`): its built-in roles
 * `stytch_member` and `stytch_admin` are Gatehouse's `member` and `admin` (docs/migrate.md, "What
 * differs"), and its built-in `stytch.*` resources are Gatehouse's own, with the same actions.
 */
import type { RbacPermission, RbacPolicy } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { isFailure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  DEFAULT_RBAC_POLICY,
  isAllowed,
  isBuiltInResource,
  isBuiltInRole,
  mergePermissions,
} from '../../tenancy/rbac/policy.js';
import { projectPolicy, setPolicy } from '../../tenancy/rbac/service.js';
import { gatehouseRoleId } from './ids.js';
import type { ImportOutcome } from './service.js';

/** The provider's built-in resources that Gatehouse does not have, and why. */
const MISSING_HERE: Readonly<Record<string, string>> = {
  'stytch.scim': 'Gatehouse has no SCIM',
};

/** A role's permission as it can be written here, and what of it cannot, each with why. */
interface Sorted {
  kept: RbacPermission | null;
  leftOut: string | null;
}

/**
 * A permission of a role on a built-in resource: the actions Gatehouse's resource lacks are left
 * out (all of them when it lacks the resource), and so, for a built-in role, are the ones the role
 * holds here anyway; what remains is what the role adds to its built-in permissions.
 */
function sortBuiltIn(roleId: string, permission: RbacPermission): Sorted {
  const { resource_id, actions } = permission;
  const resource = DEFAULT_RBAC_POLICY.resources.find((r) => r.resource_id === resource_id);
  if (!resource) {
    const why = MISSING_HERE[resource_id] ?? `Gatehouse has no resource ${resource_id}`;
    return { kept: null, leftOut: `${resource_id} ${actions.join(', ')} — ${why}` };
  }
  const unknown = actions.filter((a) => a !== '*' && !resource.actions.includes(a));
  const beyond = actions.filter(
    (a) =>
      !unknown.includes(a) &&
      !(isBuiltInRole(roleId) && isAllowed(DEFAULT_RBAC_POLICY, [roleId], resource_id, a)),
  );
  return {
    kept: beyond.length > 0 ? { resource_id, actions: beyond } : null,
    leftOut:
      unknown.length > 0
        ? `${resource_id} ${unknown.join(', ')} — Gatehouse's ${resource_id} has no such ` +
          (unknown.length === 1 ? 'action' : 'actions')
        : null,
  };
}

/**
 * Makes the source's roles and resources the project's. The built-in roles keep their built-in
 * permissions, so of their permissions on built-in resources only what they add comes over, as
 * the management API's policy update takes it. A permission on a built-in resource or action that
 * Gatehouse lacks (the provider's SCIM) is left out, and the outcome lists it; the rest comes over.
 *
 * @example
 * const result = await importPolicy(ctx, project, policyFromTheSource);
 */
export async function importPolicy(
  ctx: Context,
  project: Project,
  policy: RbacPolicy,
): Promise<ImportOutcome> {
  const roles = new Map<string, RbacPolicy['roles'][number]>();
  const leftOut: string[] = [];
  for (const role of policy.roles) {
    const roleId = gatehouseRoleId(role.role_id);
    const kept: RbacPermission[] = [];
    for (const { resource_id, actions } of role.permissions) {
      if (!isBuiltInResource(resource_id)) {
        kept.push({ resource_id, actions });
        continue;
      }
      const sorted = sortBuiltIn(roleId, { resource_id, actions });
      if (sorted.kept) kept.push(sorted.kept);
      if (sorted.leftOut) leftOut.push(`role ${role.role_id}: ${sorted.leftOut}`);
    }
    // The provider's stytch_admin and a role named admin would be one role here: merged.
    const earlier = roles.get(roleId);
    roles.set(roleId, {
      role_id: roleId,
      description: earlier?.description || role.description,
      permissions: mergePermissions(earlier?.permissions ?? [], kept),
    });
  }
  const wanted = {
    roles: [...roles.values()],
    resources: policy.resources
      .filter((r) => !isBuiltInResource(r.resource_id))
      .map(({ resource_id, description, actions }) => ({ resource_id, description, actions })),
  };
  const before = await projectPolicy(ctx.db, project.id);
  const saved = await setPolicy(ctx, project, wanted);
  if (isFailure(saved)) return { outcome: 'skipped', reason: `${saved.failure}: ${saved.message}` };
  const outcome = JSON.stringify(saved) === JSON.stringify(before) ? 'unchanged' : 'updated';
  return leftOut.length > 0 ? { outcome, leftOut } : { outcome };
}
