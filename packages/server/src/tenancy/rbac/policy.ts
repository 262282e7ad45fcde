/**
 * The role-based access policy (docs/protocol.md §6, §14): the built-in `member` and `admin`
 * roles and `stytch.*` resources, how a project's own roles and resources merge with them, and
 * the permission check every enforcing endpoint uses.
 */
import type { RbacPermission, RbacPolicy, RbacResource, RbacRole } from '@gatehouse/protocol';
import {
  MEMBER_ACTIONS,
  MEMBER_RESOURCE,
  ORGANIZATION_ACTIONS,
  ORGANIZATION_RESOURCE,
  SELF_ACTIONS,
  SELF_RESOURCE,
  SSO_ACTIONS,
} from './builtin-actions.js';

/** The roles every member has, and the extra role of an organization's creator (§14). */
export const MEMBER_ROLE = 'member';
export const ADMIN_ROLE = 'admin';

/**
 * The policy every project starts with; its roles cannot be removed nor its resources changed.
 * Its resources list the provider's actions (./builtin-actions.ts); `member` holds what the
 * provider's `stytch_member` holds, every action on oneself, and `admin` what its
 * `stytch_admin` holds.
 */
export const DEFAULT_RBAC_POLICY: RbacPolicy = {
  roles: [
    {
      role_id: MEMBER_ROLE,
      description: 'Granted to every member of an organization.',
      permissions: [{ resource_id: SELF_RESOURCE, actions: ['*'] }],
    },
    {
      role_id: ADMIN_ROLE,
      description: 'Granted to the creator of an organization; may manage it and its members.',
      permissions: [
        { resource_id: ORGANIZATION_RESOURCE, actions: ['*'] },
        { resource_id: MEMBER_RESOURCE, actions: ['*'] },
        { resource_id: 'stytch.sso', actions: ['*'] },
        { resource_id: SELF_RESOURCE, actions: ['*'] },
      ],
    },
  ],
  resources: [
    {
      resource_id: ORGANIZATION_RESOURCE,
      description: 'The organization itself.',
      // `update.settings.implicit-roles`: change the rules that give roles by e-mail domain and
      // by SSO group (tenancy/rbac/grants.ts); each other field has its own `update.*` action.
      actions: ORGANIZATION_ACTIONS,
    },
    {
      resource_id: MEMBER_RESOURCE,
      description: 'Members of the organization.',
      // `revoke-sessions`: list the organization's sessions and end them (docs/protocol.md §7.10).
      actions: MEMBER_ACTIONS,
    },
    {
      resource_id: 'stytch.sso',
      description: 'SSO connections of the organization.',
      actions: SSO_ACTIONS,
    },
    {
      resource_id: SELF_RESOURCE,
      description: 'The signed-in member.',
      actions: [...SELF_ACTIONS],
    },
  ],
};

/** A project's own part of the policy, as stored: custom roles and resources, and extensions. */
export interface CustomPolicy {
  /** Custom roles, and entries for `member`/`admin` holding only what they add. */
  roles: RbacRole[];
  /** Custom resources only; `stytch.*` ids are the built-in ones'. */
  resources: RbacResource[];
}

export const EMPTY_CUSTOM_POLICY: CustomPolicy = { roles: [], resources: [] };

/** Whether a role is one of the built-in roles, which may be extended but never removed. */
export function isBuiltInRole(roleId: string): boolean {
  return DEFAULT_RBAC_POLICY.roles.some((r) => r.role_id === roleId);
}

/** Whether a resource id is reserved for the built-in resources. */
export function isBuiltInResource(resourceId: string): boolean {
  return resourceId.startsWith('stytch.');
}

/** Permissions of two lists merged by resource; `*` absorbs every other action. */
export function mergePermissions(
  a: readonly RbacPermission[],
  b: readonly RbacPermission[],
): RbacPermission[] {
  const byResource = new Map<string, Set<string>>();
  for (const p of [...a, ...b]) {
    const actions = byResource.get(p.resource_id) ?? new Set<string>();
    for (const action of p.actions) actions.add(action);
    byResource.set(p.resource_id, actions);
  }
  return [...byResource].map(([resource_id, actions]) => ({
    resource_id,
    actions: actions.has('*') ? ['*'] : [...actions],
  }));
}

/**
 * The policy a project publishes and enforces: the built-in roles (with their extensions) and
 * resources, then the project's own.
 *
 * @example
 * effectivePolicy({ roles: [{ role_id: 'billing', description: '', permissions: [] }], resources: [] });
 */
export function effectivePolicy(custom: CustomPolicy): RbacPolicy {
  const roles = DEFAULT_RBAC_POLICY.roles.map((builtIn) => {
    const extension = custom.roles.find((r) => r.role_id === builtIn.role_id);
    return extension
      ? {
          role_id: builtIn.role_id,
          description: extension.description || builtIn.description,
          permissions: mergePermissions(builtIn.permissions, extension.permissions),
        }
      : builtIn;
  });
  return {
    roles: [...roles, ...custom.roles.filter((r) => !isBuiltInRole(r.role_id))],
    resources: [...DEFAULT_RBAC_POLICY.resources, ...custom.resources],
  };
}

/**
 * Why a custom policy is inconsistent, or null: duplicate ids, reserved resource ids, and
 * permissions naming a resource or an action that does not exist.
 */
export function policyProblem(custom: CustomPolicy): string | null {
  const resources = new Map<string, RbacResource>();
  for (const r of DEFAULT_RBAC_POLICY.resources) resources.set(r.resource_id, r);
  for (const r of custom.resources) {
    if (isBuiltInResource(r.resource_id)) {
      return `The resource id ${r.resource_id} is reserved: ids starting with stytch. are built in.`;
    }
    if (resources.has(r.resource_id)) return `The resource ${r.resource_id} is listed twice.`;
    resources.set(r.resource_id, r);
  }
  const seen = new Set<string>();
  for (const role of custom.roles) {
    if (seen.has(role.role_id)) return `The role ${role.role_id} is listed twice.`;
    seen.add(role.role_id);
    for (const p of role.permissions) {
      const resource = resources.get(p.resource_id);
      if (!resource) {
        return `The role ${role.role_id} refers to the resource ${p.resource_id}, which does not exist.`;
      }
      const missing = p.actions.find((a) => a !== '*' && !resource.actions.includes(a));
      if (missing !== undefined) {
        return `The role ${role.role_id} refers to the action ${missing}, which the resource ${p.resource_id} does not have.`;
      }
    }
  }
  return null;
}

/**
 * Whether any of the roles grants `action` on `resourceId` under the policy; role ids the policy
 * does not know grant nothing.
 *
 * @example
 * isAllowed(DEFAULT_RBAC_POLICY, ['member'], 'stytch.member', 'delete'); // false
 */
export function isAllowed(
  policy: RbacPolicy,
  roles: readonly string[],
  resourceId: string,
  action: string,
): boolean {
  return grantingRoles(policy, roles, resourceId, action).length > 0;
}

/**
 * Which of the roles grant `action` on `resourceId` under the policy (the `granting_roles` of an
 * authorization check's verdict); role ids the policy does not know grant nothing.
 *
 * @example
 * grantingRoles(DEFAULT_RBAC_POLICY, ['member', 'admin'], 'stytch.member', 'delete'); // ['admin']
 */
export function grantingRoles(
  policy: RbacPolicy,
  roles: readonly string[],
  resourceId: string,
  action: string,
): string[] {
  return policy.roles
    .filter(
      (role) =>
        roles.includes(role.role_id) &&
        role.permissions.some(
          (p) =>
            p.resource_id === resourceId && (p.actions.includes('*') || p.actions.includes(action)),
        ),
    )
    .map((role) => role.role_id);
}
