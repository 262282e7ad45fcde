/** The RBAC product's store: each project's own roles and resources, one document per project. */
import { isoAt, type Db } from '../../context.js';
import { insertUnlessDuplicate } from '../../store/unique.js';
import { EMPTY_CUSTOM_POLICY, type CustomPolicy } from './policy.js';

/**
 * The project's own part of the policy; the empty one when it has none. Read on every enforced
 * call and every bootstrap, never cached, so a change shows on every instance at once.
 */
export async function customPolicyOf(db: Db, projectId: string): Promise<CustomPolicy> {
  const row = await db
    .selectFrom('rbac_policies')
    .select(['roles', 'resources'])
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return EMPTY_CUSTOM_POLICY;
  return {
    roles: JSON.parse(row.roles) as CustomPolicy['roles'],
    resources: JSON.parse(row.resources) as CustomPolicy['resources'],
  };
}

/**
 * Reads the project's policy for a change, inside a transaction: its row is created if missing
 * and then locked, so concurrent changes of one project run one after the other and none is
 * lost (PostgreSQL waits on the row lock; SQLite has one writer anyway).
 */
export async function lockCustomPolicy(
  trx: Db,
  projectId: string,
  now: number,
): Promise<CustomPolicy> {
  if (!trx.isTransaction) throw new Error('lockCustomPolicy needs a transaction');
  const at = isoAt(now);
  await insertUnlessDuplicate(trx, (d) =>
    d
      .insertInto('rbac_policies')
      .values({ project_id: projectId, roles: '[]', resources: '[]', updated_at: at })
      .execute(),
  );
  await trx
    .updateTable('rbac_policies')
    .set({ updated_at: at })
    .where('project_id', '=', projectId)
    .execute();
  return customPolicyOf(trx, projectId);
}

/** Writes the project's own part of the policy (after `lockCustomPolicy` in the same transaction). */
export async function writeCustomPolicy(
  trx: Db,
  projectId: string,
  policy: CustomPolicy,
  now: number,
): Promise<void> {
  await trx
    .updateTable('rbac_policies')
    .set({
      roles: JSON.stringify(policy.roles),
      resources: JSON.stringify(policy.resources),
      updated_at: isoAt(now),
    })
    .where('project_id', '=', projectId)
    .execute();
}

/** Takes roles that no longer exist from every member of the project, whatever their source. */
export async function removeRolesFromMembers(
  trx: Db,
  projectId: string,
  roleIds: readonly string[],
): Promise<void> {
  if (roleIds.length === 0) return;
  await trx
    .deleteFrom('member_roles')
    .where('role_id', 'in', [...roleIds])
    .where('member_id', 'in', (q) =>
      q.selectFrom('members').select('id').where('project_id', '=', projectId),
    )
    .execute();
}
