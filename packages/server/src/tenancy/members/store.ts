/**
 * The member entity's store: member rows (creation, lookups, activation, search) and the wire
 * shape of §5. Their role rows beyond creation are in store-roles.ts.
 */
import type { Environment, Member, MemberRole, MemberStatus } from '@gatehouse/protocol';
import { sql } from 'kysely';
import { isoAt, type Db } from '../../context.js';
import { newId } from '../../crypto/random.js';
import { preparedQuery } from '../../store/prepared.js';
import type { MembersTable } from '../../store/schema.js';
import { insertUnlessDuplicate } from '../../store/unique.js';
import { ADMIN_ROLE, MEMBER_ROLE } from '../rbac/policy.js';
import { roleSourceOf } from './role-sources.js';
import { grantEmailRoles } from './store-roles.js';
import {
  NO_REGISTRATIONS,
  registrationsOf,
  type MemberRegistrations,
} from './store-registrations.js';

export { ADMIN_ROLE } from '../rbac/policy.js';

/** Fields accepted when creating a member. */
export interface CreateMemberInput {
  /** A `member-{env}-{uuid}` kept from another system (an import); a new one by default. */
  id?: string;
  email_address: string;
  name?: string;
  status?: Exclude<MemberStatus, 'deleted'>;
  roles?: string[];
  emailVerified?: boolean;
}

/** E-mail addresses are matched case-insensitively and stored lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The wire form of a member row with its role rows and linked identities. */
export function toMember(
  row: MembersTable,
  roles: { role_id: string; source_type: string }[],
  registrations: MemberRegistrations = NO_REGISTRATIONS,
): Member {
  const byRole = new Map<string, MemberRole>();
  for (const r of roles) {
    const entry = byRole.get(r.role_id) ?? { role_id: r.role_id, sources: [] };
    entry.sources.push(roleSourceOf(r.source_type));
    byRole.set(r.role_id, entry);
  }
  const memberRoles = [...byRole.values()];
  return {
    organization_id: row.organization_id,
    member_id: row.id,
    email_address: row.email,
    email_address_verified: row.email_verified === 1,
    name: row.name,
    status: row.status as MemberStatus,
    member_password_id: row.password_id,
    mfa_enrolled: row.mfa_enrolled === 1,
    mfa_phone_number: row.mfa_phone_number,
    mfa_phone_number_verified: row.mfa_phone_verified === 1,
    totp_registration_id: row.totp_registration_id,
    default_mfa_method: row.default_mfa_method as Member['default_mfa_method'],
    roles: memberRoles,
    trusted_metadata: JSON.parse(row.trusted_metadata) as Record<string, unknown>,
    untrusted_metadata: JSON.parse(row.untrusted_metadata) as Record<string, unknown>,
    sso_registrations: registrations.sso_registrations,
    oauth_registrations: registrations.oauth_registrations,
    is_breakglass: false,
    is_admin: memberRoles.some((r) => r.role_id === ADMIN_ROLE),
    is_locked: false,
    retired_email_addresses: [],
    created_at: row.created_at,
    updated_at: row.updated_at,
    // Gatehouse's own field: null before the member's first sign-in.
    last_sign_in_at: row.last_sign_in_at ?? null,
  };
}

// Every session refresh loads its member: built once (see `preparedQuery`).
const memberRowById = preparedQuery((db, p: { memberId: string; projectId: string }) =>
  db
    .selectFrom('members')
    .selectAll()
    .where('id', '=', p.memberId)
    .where('project_id', '=', p.projectId),
);
// Every password sign-in looks its member up by address.
const memberRowByEmail = preparedQuery((db, p: { organizationId: string; email: string }) =>
  db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', p.organizationId)
    .where('email', '=', p.email),
);
const rolesOfMember = preparedQuery((db, p: { memberId: string }) =>
  db
    .selectFrom('member_roles')
    .select(['role_id', 'source_type'])
    .where('member_id', '=', p.memberId)
    .orderBy('role_id')
    .orderBy('source_type'),
);

/**
 * Member rows in their wire form, each with its role rows and linked identities (one query for
 * all the roles, one for all the identities).
 */
export async function withRoles(db: Db, rows: MembersTable[]): Promise<Member[]> {
  if (rows.length === 0) return [];
  const [roles, registrations] = await Promise.all([
    db
      .selectFrom('member_roles')
      .select(['member_id', 'role_id', 'source_type'])
      .where(
        'member_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('role_id')
      .execute(),
    registrationsOf(
      db,
      rows.map((r) => ({ member_id: r.id, organization_id: r.organization_id })),
    ),
  ]);
  return rows.map((row) =>
    toMember(
      row,
      roles.filter((r) => r.member_id === row.id),
      registrations.get(row.id),
    ),
  );
}

/**
 * Creates a member of an organization with the `member` role plus any given ones. Returns
 * `'email_taken'` if the organization already has a member with this address, including one a
 * concurrent call inserted after the check.
 *
 * @example
 * await createMember(db, project.id, 'test', org.organization_id, { email_address: 'a@b.co' }, Date.now());
 */
export async function createMember(
  db: Db,
  projectId: string,
  env: Environment,
  organizationId: string,
  input: CreateMemberInput,
  now: number,
): Promise<Member | 'email_taken'> {
  const email = normalizeEmail(input.email_address);
  if (await memberByEmail(db, organizationId, email)) return 'email_taken';
  const at = isoAt(now);
  const row: MembersTable = {
    id: input.id ?? newId('member', env),
    project_id: projectId,
    organization_id: organizationId,
    email,
    email_id: newId('member-email', env),
    email_verified: input.emailVerified ? 1 : 0,
    name: input.name ?? '',
    status: input.status ?? 'active',
    password_id: '',
    mfa_enrolled: 0,
    mfa_phone_number: '',
    mfa_phone_verified: 0,
    totp_registration_id: '',
    default_mfa_method: '',
    trusted_metadata: '{}',
    untrusted_metadata: '{}',
    created_at: at,
    updated_at: at,
  };
  // The check above cannot see a concurrent call's uncommitted member: the unique index decides.
  const inserted = await insertUnlessDuplicate(db, (d) =>
    d.insertInto('members').values(row).execute(),
  );
  if (!inserted) return 'email_taken';
  const roles = [...new Set([MEMBER_ROLE, ...(input.roles ?? [])])];
  await db
    .insertInto('member_roles')
    .values(
      roles.map((role_id) => ({ member_id: row.id, role_id, source_type: 'direct_assignment' })),
    )
    .execute();
  await grantEmailRoles(db, projectId, organizationId, row.id, email);
  // A new member has no linked identity yet: its roles are all there is to read.
  return toMember(row, await rolesOfMember(db, { memberId: row.id }));
}

/** A member of the organization by e-mail (deleted members included), or null. */
export async function memberByEmail(
  db: Db,
  organizationId: string,
  email: string,
): Promise<Member | null> {
  const [row] = await memberRowByEmail(db, { organizationId, email: normalizeEmail(email) });
  return row ? withOneMembersRoles(db, row) : null;
}

/** A member of the project by id, or null. */
export async function memberById(
  db: Db,
  projectId: string,
  memberId: string,
): Promise<Member | null> {
  const [row] = await memberRowById(db, { memberId, projectId });
  return row ? withOneMembersRoles(db, row) : null;
}

/** One member row in its wire form, with its role rows and linked identities. */
async function withOneMembersRoles(db: Db, row: MembersTable): Promise<Member> {
  const [roles, registrations] = await Promise.all([
    rolesOfMember(db, { memberId: row.id }),
    registrationsOf(db, [{ member_id: row.id, organization_id: row.organization_id }]),
  ]);
  return toMember(row, roles, registrations.get(row.id));
}

/** Every membership of an address in the project, deleted ones excluded. */
export async function membersByEmail(db: Db, projectId: string, email: string): Promise<Member[]> {
  const rows = await db
    .selectFrom('members')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('email', '=', normalizeEmail(email))
    .where('status', '!=', 'deleted')
    .orderBy('created_at')
    .execute();
  return withRoles(db, rows);
}

/**
 * Marks a member active with a verified e-mail: what proving control of the address does to an
 * invited or pending member (and a no-op for an active one).
 */
export async function activateMember(db: Db, member: Member, now: number): Promise<Member> {
  if (member.status === 'active' && member.email_address_verified) return member;
  const at = isoAt(now);
  await db
    .updateTable('members')
    .set({ status: 'active', email_verified: 1, updated_at: at })
    .where('id', '=', member.member_id)
    .execute();
  return { ...member, status: 'active', email_address_verified: true, updated_at: at };
}

/**
 * Remembers the language a member signed in with, for the messages the server later sends on its
 * own (the paused-login e-mail, a code texted at sign-in).
 */
export async function rememberMemberLocale(
  db: Db,
  memberId: string,
  locale: string,
): Promise<void> {
  await db.updateTable('members').set({ locale }).where('id', '=', memberId).execute();
}

/** The language a member last signed in with, or null. */
export async function memberLocale(db: Db, memberId: string): Promise<string | null> {
  const row = await db
    .selectFrom('members')
    .select('locale')
    .where('id', '=', memberId)
    .executeTakeFirst();
  return row?.locale ?? null;
}

/** The id of a member's e-mail address (`member-email-…`), the `method_id` of e-mail factors. */
export async function memberEmailId(db: Db, memberId: string): Promise<string> {
  const row = await db
    .selectFrom('members')
    .select('email_id')
    .where('id', '=', memberId)
    .executeTakeFirst();
  return row?.email_id ?? '';
}

/** Whether another live member of the member's organization has this (E.164) number. */
export async function phoneNumberTaken(db: Db, member: Member, phone: string): Promise<boolean> {
  const other = await db
    .selectFrom('members')
    .select('id')
    .where('organization_id', '=', member.organization_id)
    .where('mfa_phone_number', '=', phone)
    .where('id', '!=', member.member_id)
    .where('status', '!=', 'deleted')
    .executeTakeFirst();
  return other !== undefined;
}

/** Writes a member's changed columns. */
export async function updateMemberRow(
  db: Db,
  memberId: string,
  set: Partial<MembersTable>,
): Promise<void> {
  await db.updateTable('members').set(set).where('id', '=', memberId).execute();
}

/**
 * Moves a member's `updated_at` from `from` to `to` if it still is `from`; false when a
 * concurrent change moved it first. The row stays locked until the transaction ends.
 */
export async function advanceMemberUpdatedAt(
  db: Db,
  memberId: string,
  from: string,
  to: string,
): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ updated_at: to })
    .where('id', '=', memberId)
    .where('updated_at', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks a member deleted; false when it already was. Conditional, so of concurrent deletions of
 * one member exactly one succeeds.
 */
export async function markMemberDeleted(db: Db, memberId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ status: 'deleted', updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .where('status', '!=', 'deleted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks an invited member deleted (a revoked invitation); false when they are no longer invited,
 * so an invitation accepted at the same moment is never undone.
 */
export async function markInvitedMemberDeleted(
  db: Db,
  memberId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ status: 'deleted', updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .where('status', '=', 'invited')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks an invited member changed now, locking their row; false when they are no longer invited
 * (an invitation resent must not outlive a revocation or an acceptance).
 */
export async function touchInvitedMember(db: Db, memberId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .where('status', '=', 'invited')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Where a member belongs and its address, by id alone (project checks are the caller's). */
export async function memberAddress(
  db: Db,
  memberId: string,
): Promise<{ project_id: string; organization_id: string; email: string } | undefined> {
  return db
    .selectFrom('members')
    .select(['project_id', 'organization_id', 'email'])
    .where('id', '=', memberId)
    .executeTakeFirst();
}

/** One condition of a member search (§7.10 `me/members/search`); lists are never empty. */
export type MemberSearchOperand =
  | { filter_name: 'member_ids'; filter_value: string[] }
  | { filter_name: 'member_emails'; filter_value: string[] }
  | { filter_name: 'statuses'; filter_value: MemberStatus[] }
  | { filter_name: 'member_roles'; filter_value: string[] }
  | { filter_name: 'member_email_fuzzy' | 'member_name_fuzzy'; filter_value: string };

/** A LIKE pattern for text containing `value` in any case, `%`, `_` and backslash literal. */
function containing(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A page of an organization's members matching the query, oldest first, and how many match. */
export async function searchMembers(
  db: Db,
  organizationId: string,
  query: { operator: 'AND' | 'OR'; operands: MemberSearchOperand[] } | undefined,
  page: { offset: number; limit: number },
): Promise<{ members: Member[]; total: number }> {
  const base = db.selectFrom('members').where('organization_id', '=', organizationId);
  const filtered =
    query && query.operands.length > 0
      ? base.where((eb) => {
          const conditions = query.operands.map((o) => {
            switch (o.filter_name) {
              case 'member_ids':
                return eb('id', 'in', o.filter_value);
              case 'member_emails':
                return eb('email', 'in', o.filter_value.map(normalizeEmail));
              case 'statuses':
                return eb('status', 'in', o.filter_value);
              case 'member_roles':
                return eb('id', 'in', (q) =>
                  q
                    .selectFrom('member_roles')
                    .select('member_id')
                    .where('role_id', 'in', o.filter_value),
                );
              case 'member_email_fuzzy':
                return sql<boolean>`lower(email) like ${containing(o.filter_value)} escape '\\'`;
              case 'member_name_fuzzy':
                return sql<boolean>`lower(name) like ${containing(o.filter_value)} escape '\\'`;
            }
          });
          return query.operator === 'AND' ? eb.and(conditions) : eb.or(conditions);
        })
      : base;
  const count = await filtered
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  const rows = await filtered
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { members: await withRoles(db, rows), total: Number(count?.n ?? 0) };
}
