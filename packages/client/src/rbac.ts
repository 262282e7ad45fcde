/** Client-side RBAC (docs/widget.md §6): a session's role ids checked against the project's policy. */
import type { RbacPolicy } from '@gatehouse/protocol';

/** The wildcard action that grants every action on a resource. */
const ANY_ACTION = '*';

/**
 * Whether any of `roleIds` has, per `policy`, a permission on `resourceId` whose actions include
 * `action` or the wildcard. No policy or no roles means no permission.
 *
 * @example
 * isAuthorized(policy, ['admin'], 'documents', 'delete');
 */
export function isAuthorized(
  policy: RbacPolicy | null,
  roleIds: readonly string[],
  resourceId: string,
  action: string,
): boolean {
  if (!policy) return false;
  const held = new Set(roleIds);
  return policy.roles.some(
    (role) =>
      held.has(role.role_id) &&
      role.permissions.some(
        (p) =>
          p.resource_id === resourceId &&
          (p.actions.includes(action) || p.actions.includes(ANY_ACTION)),
      ),
  );
}

/**
 * Every action of every resource the policy declares, mapped to whether the roles hold it.
 *
 * @example
 * allPermissions(policy, ['member']).documents?.read; // true or false
 */
export function allPermissions(
  policy: RbacPolicy | null,
  roleIds: readonly string[],
): Record<string, Record<string, boolean>> {
  const result: Record<string, Record<string, boolean>> = {};
  if (!policy) return result;
  for (const resource of policy.resources) {
    const actions: Record<string, boolean> = {};
    for (const action of resource.actions) {
      actions[action] = isAuthorized(policy, roleIds, resource.resource_id, action);
    }
    result[resource.resource_id] = actions;
  }
  return result;
}
