/**
 * Importing a project's RBAC policy from the provider (`gatehouse import`): its built-in roles
 * `stytch_member` and `stytch_admin` are Gatehouse's `member` and `admin` (docs/migrate.md, "What
 * differs"), and its built-in `stytch.*` resources are Gatehouse's own, left as they are here.
 */
import type { RbacPolicy } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { isFailure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import { projectPolicy, setPolicy } from '../../tenancy/rbac/service.js';
import { gatehouseRoleId } from './ids.js';
import type { ImportOutcome } from './service.js';

/** Whether a resource is one of the built-in ones (`stytch.member`, …), which every project has. */
const builtIn = (resourceId: string) => resourceId.startsWith('stytch.');

/**
 * Makes the source's roles and resources the project's. The built-in roles keep at least their
 * built-in permissions here, so only their permissions on the source's own resources come over.
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
  for (const role of policy.roles) {
    const roleId = gatehouseRoleId(role.role_id);
    const builtInRole = roleId === 'member' || roleId === 'admin';
    const kept = role.permissions
      .filter((p) => !(builtInRole && builtIn(p.resource_id)))
      .map(({ resource_id, actions }) => ({ resource_id, actions }));
    // The provider's stytch_admin and a role named admin would be one role here: merged.
    const earlier = roles.get(roleId);
    roles.set(roleId, {
      role_id: roleId,
      description: earlier?.description || role.description,
      permissions: [...(earlier?.permissions ?? []), ...kept],
    });
  }
  const wanted = {
    roles: [...roles.values()],
    resources: policy.resources
      .filter((r) => !builtIn(r.resource_id))
      .map(({ resource_id, description, actions }) => ({ resource_id, description, actions })),
  };
  const before = await projectPolicy(ctx.db, project.id);
  const saved = await setPolicy(ctx, project, wanted);
  if (isFailure(saved)) return { outcome: 'skipped', reason: `${saved.failure}: ${saved.message}` };
  return { outcome: JSON.stringify(saved) === JSON.stringify(before) ? 'unchanged' : 'updated' };
}
