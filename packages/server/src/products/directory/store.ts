/**
 * The directory's writes: deleting an organization with everything that names it or its members,
 * taking a factor away from a member, and bringing a deleted member back. Each write is
 * conditional, so of two concurrent calls doing the same thing exactly one does it. Also the
 * member count of `organizations.metrics`.
 */
import { isoAt, type Db } from '../../context.js';

/**
 * Locks the organization's row for the rest of the transaction (PostgreSQL row lock; SQLite's
 * single writer); false when the project has no such organization, including one a concurrent
 * deletion removed meanwhile.
 */
export async function lockOrganization(
  db: Db,
  projectId: string,
  organizationId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('organizations')
    .set({ updated_at: isoAt(now) })
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes an organization (locked by the caller) and every row that names it or one of its
 * members: members with their roles, passwords, authenticator apps, recovery codes, SMS codes,
 * lockout counters, linked identities and sessions; ISTs, link tokens and OAuth requests bound to
 * it; its SSO connections with their certificates, requests and seen assertions; its JIT domains.
 * Sessions are deleted, not revoked, so none of them authenticates again. Returns the ids of the
 * deleted members.
 */
export async function deleteOrganizationRows(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<string[]> {
  const members = await db
    .selectFrom('members')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('project_id', '=', projectId)
    .execute();
  const memberIds = members.map((m) => m.id);
  // In slices, so an organization of any size stays under every driver's bound-parameter limit.
  for (let at = 0; at < memberIds.length; at += 500) {
    await deleteMemberRows(db, memberIds.slice(at, at + 500));
  }
  await db
    .deleteFrom('intermediate_sessions')
    .where('organization_id', '=', organizationId)
    .execute();
  await db.deleteFrom('tokens').where('organization_id', '=', organizationId).execute();
  await db.deleteFrom('oauth_requests').where('organization_id', '=', organizationId).execute();
  await db
    .deleteFrom('member_federated_identities')
    .where('organization_id', '=', organizationId)
    .execute();
  const connections = db
    .selectFrom('sso_connections')
    .select('id')
    .where('organization_id', '=', organizationId);
  await db.deleteFrom('sso_certificates').where('connection_id', 'in', connections).execute();
  await db.deleteFrom('sso_requests').where('connection_id', 'in', connections).execute();
  await db.deleteFrom('sso_assertions').where('connection_id', 'in', connections).execute();
  await db.deleteFrom('sso_connections').where('organization_id', '=', organizationId).execute();
  await db.deleteFrom('members').where('organization_id', '=', organizationId).execute();
  await db
    .deleteFrom('organization_domains')
    .where('organization_id', '=', organizationId)
    .execute();
  await db
    .deleteFrom('domain_verifications')
    .where('organization_id', '=', organizationId)
    .execute();
  await db
    .deleteFrom('organizations')
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .execute();
  return memberIds;
}

/** Deletes the rows that name these members, ahead of the members themselves. */
async function deleteMemberRows(db: Db, memberIds: string[]): Promise<void> {
  if (memberIds.length === 0) return;
  for (const table of [
    'sessions',
    'member_roles',
    'passwords',
    'password_failures',
    'recovery_codes',
    'totp_registrations',
    'otp_codes',
    'factor_failures',
    'intermediate_sessions',
  ] as const) {
    await db.deleteFrom(table).where('member_id', 'in', memberIds).execute();
  }
}

/** The member whose password has this id, in the project, or null. */
export async function memberIdOfPassword(
  db: Db,
  projectId: string,
  passwordId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('passwords')
    .select('member_id')
    .where('id', '=', passwordId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.member_id ?? null;
}

/**
 * Deletes a member's password and its lockout counter; false when the password is already gone
 * (a concurrent call deleted it first).
 */
export async function deletePasswordRow(
  db: Db,
  memberId: string,
  passwordId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('passwords')
    .where('id', '=', passwordId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) return false;
  await db.deleteFrom('password_failures').where('member_id', '=', memberId).execute();
  await db
    .updateTable('members')
    .set({ password_id: '', updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .execute();
  return true;
}

/**
 * Deletes a member's authenticator apps with their recovery codes; false when the member had
 * none registered.
 */
export async function deleteTotpRows(db: Db, memberId: string, now: number): Promise<boolean> {
  await db.deleteFrom('recovery_codes').where('member_id', '=', memberId).execute();
  const result = await db
    .deleteFrom('totp_registrations')
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  const cleared = await db
    .updateTable('members')
    .set({ totp_registration_id: '', updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .where('totp_registration_id', '!=', '')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0 || Number(cleared.numUpdatedRows) > 0;
}

/** Deletes the SMS codes sent to a member and not yet used: they were for the number removed. */
export async function deleteSmsCodes(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('otp_codes').where('member_id', '=', memberId).execute();
}

/**
 * Makes a deleted member active; false when the member is not deleted (a concurrent call
 * reactivated it first).
 */
export async function reactivateMemberRow(db: Db, memberId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ status: 'active', updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .where('status', '=', 'deleted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many members of the organization are not deleted (active, invited and pending). */
export async function countMembers(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('project_id', '=', projectId)
    .where('status', '!=', 'deleted')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
