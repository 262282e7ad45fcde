/**
 * Who may change the rules that give roles without naming a member: an organization's e-mail
 * domain rules and its SSO connections' group rules. Such a rule is a role grant, so a member may
 * change it only with the permission to, and only for roles they hold themselves.
 */
import type { Db } from '../../context.js';
import type { Failure } from '../../result.js';
import { fail } from '../../result.js';
import { ADMIN_ROLE } from './policy.js';
import { authorize } from './service.js';

/** The action on `stytch.organization` that lets a member change role-granting rules. */
export const IMPLICIT_ROLES_RESOURCE = 'stytch.organization';
export const IMPLICIT_ROLES_ACTION = 'update.settings.implicit-roles';

/**
 * Who asks for a change: the host through the management API or the CLI (any role of the
 * policy), or a signed-in member with these role ids.
 */
export type Grantor = 'host' | { memberRoles: readonly string[] };

/** A rule that gives `role_id` to whoever matches `key` (an e-mail domain, an IdP group). */
export interface RoleRule {
  key: string;
  role_id: string;
}

const ruleKey = (r: RoleRule): string => `${r.key}\u0000${r.role_id}`;

/** The rules in one list and not in the other, both ways: what a change adds or takes away. */
function changedRules(before: readonly RoleRule[], after: readonly RoleRule[]): RoleRule[] {
  const had = new Set(before.map(ruleKey));
  const has = new Set(after.map(ruleKey));
  return [
    ...after.filter((r) => !had.has(ruleKey(r))),
    ...before.filter((r) => !has.has(ruleKey(r))),
  ];
}

/** A member may not change a rule for a role they do not hold. */
const roleNotHeld = (roleId: string): Failure =>
  fail(
    'unauthorized_action',
    roleId === ADMIN_ROLE
      ? 'Only an admin may change rules that give the admin role.'
      : `You may change only rules that give roles you hold yourself; you do not hold ${roleId}.`,
  );

/**
 * Refuses a member's change of role-granting rules unless their roles allow
 * `stytch.organization` `update.settings.implicit-roles` and they hold every role of each rule
 * added or removed (so `admin` only for admins). Rules left as they were need nothing, so a
 * settings form that sends the whole list back unchanged is not refused. The host may change any.
 *
 * @example
 * const refused = await refuseRoleGrants(ctx.db, project.id, { memberRoles: ['member'] }, [], [
 *   { key: 'acme.test', role_id: 'admin' },
 * ]); // 403 unauthorized_action
 */
export async function refuseRoleGrants(
  db: Db,
  projectId: string,
  grantor: Grantor,
  before: readonly RoleRule[],
  after: readonly RoleRule[],
): Promise<Failure | null> {
  if (grantor === 'host') return null;
  const changed = changedRules(before, after);
  if (changed.length === 0) return null;
  const refused = await authorize(
    db,
    projectId,
    grantor.memberRoles,
    IMPLICIT_ROLES_RESOURCE,
    IMPLICIT_ROLES_ACTION,
  );
  if (refused) return refused;
  const foreign = changed.find((r) => !grantor.memberRoles.includes(r.role_id));
  return foreign ? roleNotHeld(foreign.role_id) : null;
}

/**
 * Refuses a member's grant of roles they do not hold themselves (so `admin` only by admins), as
 * when a member invites someone with roles; the host may grant any role of the policy. Whether
 * the roles exist is checked where they are stored.
 *
 * @example
 * const refused = refuseRolesNotHeld({ memberRoles: ['member'] }, ['admin']); // 403 unauthorized_action
 */
export function refuseRolesNotHeld(grantor: Grantor, roleIds: readonly string[]): Failure | null {
  if (grantor === 'host') return null;
  const foreign = roleIds.find((id) => !grantor.memberRoles.includes(id));
  if (foreign === undefined) return null;
  return fail(
    'unauthorized_action',
    foreign === ADMIN_ROLE
      ? 'Only an admin may give the admin role.'
      : `You may give only roles you hold yourself; you do not hold ${foreign}.`,
  );
}
