/**
 * The member entity's role rows: the `member` role every direct assignment keeps, the roles an
 * organization's e-mail domain rules give (`email_assignment`), and replacing the roles of one
 * source (a direct assignment, one SSO connection's groups, one SSO connection itself).
 */
import type { EmailRoleAssignment } from '@gatehouse/protocol';
import type { Db } from '../../context.js';
import { ADMIN_ROLE, effectivePolicy, MEMBER_ROLE } from '../rbac/policy.js';
import { customPolicyOf } from '../rbac/store.js';
import { connectionSource } from './role-sources.js';

/** The roles the rules give an address: those of its exact domain. */
function rolesForEmail(rules: readonly EmailRoleAssignment[], email: string): string[] {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return [...new Set(rules.filter((r) => r.domain === domain).map((r) => r.role_id))];
}

/** Role ids of the project's current policy (rules naming a deleted role give nothing). */
async function knownRoles(db: Db, projectId: string): Promise<Set<string>> {
  return new Set(effectivePolicy(await customPolicyOf(db, projectId)).roles.map((r) => r.role_id));
}

/** Gives a new member the roles of the organization's e-mail domain rules. */
export async function grantEmailRoles(
  db: Db,
  projectId: string,
  organizationId: string,
  memberId: string,
  email: string,
): Promise<void> {
  // selectAll: a database one migration older has no rules column, and no rules.
  const org = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', organizationId)
    .executeTakeFirst();
  const rules = JSON.parse(
    org?.rbac_email_implicit_role_assignments ?? '[]',
  ) as EmailRoleAssignment[];
  const matching = rolesForEmail(rules, email);
  if (matching.length === 0) return;
  const known = await knownRoles(db, projectId);
  const roles = matching.filter((r) => known.has(r));
  if (roles.length === 0) return;
  await db
    .insertInto('member_roles')
    .values(
      roles.map((role_id) => ({ member_id: memberId, role_id, source_type: 'email_assignment' })),
    )
    .execute();
}

/**
 * Recomputes the `email_assignment` roles of every member of an organization under new rules
 * (in the transaction that saves them).
 */
export async function replaceEmailRoles(
  db: Db,
  organizationId: string,
  rules: readonly EmailRoleAssignment[],
): Promise<void> {
  const members = await db
    .selectFrom('members')
    .select(['id', 'email', 'project_id'])
    .where('organization_id', '=', organizationId)
    .execute();
  await db
    .deleteFrom('member_roles')
    .where('source_type', '=', 'email_assignment')
    .where('member_id', 'in', (q) =>
      q.selectFrom('members').select('id').where('organization_id', '=', organizationId),
    )
    .execute();
  const first = members[0];
  if (!first || rules.length === 0) return;
  const known = await knownRoles(db, first.project_id);
  const rows = members.flatMap((m) =>
    rolesForEmail(rules, m.email)
      .filter((r) => known.has(r))
      .map((role_id) => ({ member_id: m.id, role_id, source_type: 'email_assignment' })),
  );
  // Bounded batches: one statement's parameters are limited (SQLite 32766, PostgreSQL 65535).
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('member_roles')
      .values(rows.slice(i, i + 1000))
      .execute();
  }
}

/**
 * Replaces the member's roles of one source with `roles` (role ids are checked by the caller
 * against the project's policy): the direct assignments, which always keep `member`, the group
 * roles of one SSO connection, or the roles one SSO connection gives everyone who signs in
 * through it, recorded with the connection (`role-sources.ts`). Replacing a connection's group
 * roles also drops group roles stored before their connection was recorded.
 */
export async function replaceRolesFrom(
  db: Db,
  memberId: string,
  source: 'direct_assignment' | { ssoConnectionGroup: string } | { ssoConnection: string },
  roles: readonly string[],
): Promise<void> {
  const sourceType =
    source === 'direct_assignment'
      ? source
      : 'ssoConnection' in source
        ? connectionSource('sso_connection', source.ssoConnection)
        : connectionSource('sso_connection_group', source.ssoConnectionGroup);
  const replaced =
    typeof source === 'object' && 'ssoConnectionGroup' in source
      ? [sourceType, 'sso_connection_group']
      : [sourceType];
  await db
    .deleteFrom('member_roles')
    .where('member_id', '=', memberId)
    .where('source_type', 'in', replaced)
    .execute();
  const kept = new Set(source === 'direct_assignment' ? [MEMBER_ROLE, ...roles] : roles);
  if (kept.size === 0) return;
  await db
    .insertInto('member_roles')
    .values([...kept].map((role_id) => ({ member_id: memberId, role_id, source_type: sourceType })))
    // A change of the connection's roles at the same time may have given one already.
    .onConflict((oc) => oc.columns(['member_id', 'role_id', 'source_type']).doNothing())
    .execute();
}

/**
 * Gives the roles of an SSO connection's new list to every member who has signed in through it
 * (an identity linked to the connection), in the transaction that saves the list: a role taken
 * off the connection is gone from their sessions at once, a role added holds in the sessions
 * that signed in through it.
 */
export async function replaceConnectionRoles(
  db: Db,
  organizationId: string,
  connectionId: string,
  roles: readonly string[],
): Promise<void> {
  const sourceType = connectionSource('sso_connection', connectionId);
  await db.deleteFrom('member_roles').where('source_type', '=', sourceType).execute();
  if (roles.length === 0) return;
  const linked = await db
    .selectFrom('member_federated_identities')
    .select('member_id')
    .distinct()
    .where('organization_id', '=', organizationId)
    .where('provider', '=', `sso:${connectionId}`)
    .execute();
  const rows = linked.flatMap(({ member_id }) =>
    [...new Set(roles)].map((role_id) => ({ member_id, role_id, source_type: sourceType })),
  );
  // Bounded batches: one statement's parameters are limited (SQLite 32766, PostgreSQL 65535).
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('member_roles')
      .values(rows.slice(i, i + 1000))
      // A sign-in through the connection at the same time may have given one already.
      .onConflict((oc) => oc.columns(['member_id', 'role_id', 'source_type']).doNothing())
      .execute();
  }
}

/** How many active members of an organization hold `admin`, from whatever source. */
export async function activeAdminCount(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where('id', 'in', (q) =>
      q.selectFrom('member_roles').select('member_id').where('role_id', '=', ADMIN_ROLE),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
