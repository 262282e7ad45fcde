/** Changing a member's MFA settings: enrollment, phone number, default method. */
import type { Member, MfaMethod, Organization } from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../../context.js';
import { endMemberSessions } from '../../auth/revocation.js';
import { allOrNothing, fail } from '../../result.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { MembersTable } from '../../store/schema.js';
import { normalizePhoneNumber } from '../otp-sms/phone.js';
import type { Failure } from '../../result.js';
import {
  advanceMemberUpdatedAt,
  markMemberDeleted,
  memberById,
  phoneNumberTaken,
  updateMemberRow,
} from '../../tenancy/members/store.js';
import { invalidPhoneNumber, memberNotFound } from '../../tenancy/members/errors.js';
import { duplicatePhoneNumber } from '../otp-sms/errors.js';
import { claimUpdate } from '../../tenancy/updated-at.js';
import { keepingAnAdmin } from '../../tenancy/members/last-admin.js';
import { replaceRolesFrom } from '../../tenancy/members/store-roles.js';
import { refuseRolesNotHeld, type Grantor } from '../../tenancy/rbac/grants.js';
import { MEMBER_ROLE } from '../../tenancy/rbac/policy.js';
import { checkRoleIdsForAssignment } from '../../tenancy/rbac/service.js';

/** The most characters a member's untrusted metadata takes, as JSON. */
const METADATA_MAX_CHARS = 4096;

const metadataTooLarge = (): Failure =>
  fail(
    'invalid_request',
    `untrusted_metadata may take at most ${METADATA_MAX_CHARS} characters as JSON.`,
  );

/** The MFA fields an update may change; absent fields stay as they are. */
export interface MemberMfaPatch {
  name?: string | undefined;
  untrusted_metadata?: Record<string, unknown> | undefined;
  mfa_enrolled?: boolean | undefined;
  /** Any usual format, stored as E.164; `''` removes the number. */
  mfa_phone_number?: string | undefined;
  mfa_phone_number_verified?: boolean | undefined;
  default_mfa_method?: '' | MfaMethod | undefined;
}

/**
 * Applies a patch to a member of the project. A new phone number is normalized, must not be
 * another member's in the organization, and is unverified unless the patch says otherwise.
 *
 * @example
 * await updateMember(db, project.id, memberId, { mfa_phone_number: '+1 415 555 2671', mfa_phone_number_verified: true }, Date.now());
 */
export async function updateMember(
  db: Db,
  projectId: string,
  memberId: string,
  patch: MemberMfaPatch,
  now: number,
): Promise<Member | Failure> {
  const member = await memberById(db, projectId, memberId);
  if (!member) return memberNotFound();
  const set: Partial<MembersTable> = { updated_at: isoAt(now) };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.untrusted_metadata !== undefined) {
    const json = JSON.stringify(patch.untrusted_metadata);
    if (json.length > METADATA_MAX_CHARS) return metadataTooLarge();
    set.untrusted_metadata = json;
  }
  if (patch.mfa_enrolled !== undefined) set.mfa_enrolled = patch.mfa_enrolled ? 1 : 0;
  if (patch.default_mfa_method !== undefined) set.default_mfa_method = patch.default_mfa_method;
  if (patch.mfa_phone_number !== undefined) {
    let phone = '';
    if (patch.mfa_phone_number.trim() !== '') {
      const parsed = await normalizePhoneNumber(patch.mfa_phone_number);
      if (!parsed) return invalidPhoneNumber();
      phone = parsed.e164;
    }
    if (phone !== member.mfa_phone_number) {
      const taken = phone !== '' && (await phoneNumberTaken(db, member, phone));
      if (taken) {
        return duplicatePhoneNumber();
      }
      set.mfa_phone_number = phone;
      set.mfa_phone_verified = 0;
    }
  }
  // A verified flag without a number would claim a phone that does not exist.
  const phoneAfter = set.mfa_phone_number ?? member.mfa_phone_number;
  if (patch.mfa_phone_number_verified !== undefined) {
    set.mfa_phone_verified = patch.mfa_phone_number_verified && phoneAfter !== '' ? 1 : 0;
  }
  await updateMemberRow(db, memberId, set);
  return (await memberById(db, projectId, memberId)) ?? memberNotFound();
}

/** A member of an organization with it, as the member-session endpoints answer (§7.10). */
export interface MemberWithOrganization {
  member_id: string;
  member: Member;
  organization: Organization;
}

/**
 * A member of the caller's organization by id: `member_not_found` for ids of other
 * organizations or projects and for deleted members, so ids cannot be probed across tenants.
 *
 * @example
 * const target = await organizationMember(ctx.db, project.id, caller.organization_id, memberId);
 */
export async function organizationMember(
  db: Db,
  projectId: string,
  organizationId: string,
  memberId: string,
): Promise<MemberWithOrganization | Failure> {
  const member = await memberById(db, projectId, memberId);
  if (!member || member.organization_id !== organizationId || member.status === 'deleted') {
    return memberNotFound();
  }
  const organization = await organizationById(db, projectId, organizationId);
  if (!organization) return memberNotFound();
  return { member_id: member.member_id, member, organization };
}

/**
 * What a member-session update of a member may change: the browser API's call takes the name,
 * untrusted metadata and roles, the management API's call made with a member's session also
 * the MFA settings (the route checks which permission each needs).
 */
export interface OrganizationMemberPatch extends MemberMfaPatch {
  /** Replaces the directly assigned roles; `member` always stays. */
  roles?: string[] | undefined;
  /** The `updated_at` the change is based on: 409 `stale_update` when the stored one differs. */
  updated_at?: string | undefined;
}

/**
 * Changes the name, untrusted metadata or directly assigned roles of a member of the caller's
 * organization (the caller's permission checked by the route). A role added or taken away must
 * be one the grantor holds (403 `unauthorized_action`), so nobody hands out more than they have;
 * roles left as they were need nothing, and roles from e-mail rules and SSO groups stay. With
 * `updated_at`, the change is made only while the stored one is the same (409 `stale_update`);
 * a member (not the host) taking `admin` from the organization's last active admin, themselves
 * included, is refused (409 `last_admin`).
 *
 * @example
 * await updateOrganizationMember(ctx, project.id, org.organization_id, memberId, { roles: ['admin'] }, { memberRoles: ['admin', 'member'] });
 */
export async function updateOrganizationMember(
  ctx: Context,
  projectId: string,
  organizationId: string,
  memberId: string,
  patch: OrganizationMemberPatch,
  grantor: Grantor = 'host',
): Promise<MemberWithOrganization | Failure> {
  const where = { projectId, organizationId, memberId };
  return allOrNothing(ctx.db, async (trx) => {
    const target = await organizationMember(trx, projectId, organizationId, memberId);
    if ('failure' in target) return target;
    const change = () => changeMember(ctx, trx, where, patch, grantor);
    // Roles taken away may leave the organization without an admin. Its row is locked before
    // the member's, in the same order as a removal, so concurrent changes cannot deadlock.
    return patch.roles === undefined || grantor === 'host'
      ? change()
      : keepingAnAdmin(trx, projectId, organizationId, change);
  });
}

/** The change of {@link updateOrganizationMember}, inside its transaction. */
async function changeMember(
  ctx: Context,
  trx: Db,
  where: { projectId: string; organizationId: string; memberId: string },
  patch: OrganizationMemberPatch,
  grantor: Grantor,
): Promise<MemberWithOrganization | Failure> {
  const { projectId, organizationId, memberId } = where;
  const { roles, updated_at: expected, ...rest } = patch;
  // Claims the row (a conditional update that locks it) before reading what the change is
  // checked against, so a screen loaded before a concurrent change cannot overwrite it.
  const version = await claimUpdate(
    {
      read: async () => (await memberById(trx, projectId, memberId))?.updated_at ?? null,
      advance: (from, to) => advanceMemberUpdatedAt(trx, memberId, from, to),
    },
    expected,
    ctx.now(),
    'member',
  );
  if (version === null) return memberNotFound();
  if (typeof version !== 'string') return version;
  const found = await organizationMember(trx, projectId, organizationId, memberId);
  if ('failure' in found) return found;
  if (roles !== undefined) {
    const refused =
      refuseRolesNotHeld(grantor, changedDirectRoles(found.member, roles)) ??
      (await checkRoleIdsForAssignment(trx, projectId, roles, ctx.now()));
    if (refused) return refused;
    await replaceRolesFrom(trx, memberId, 'direct_assignment', roles);
  }
  const member = await updateMember(trx, projectId, memberId, rest, Date.parse(version));
  return 'failure' in member ? member : { ...found, member };
}

/** The roles a new list of direct roles adds to or takes from a member's, `member` aside. */
function changedDirectRoles(member: Member, roles: readonly string[]): string[] {
  const direct = new Set(
    member.roles
      .filter((r) => r.sources.some((s) => s.type === 'direct_assignment'))
      .map((r) => r.role_id),
  );
  const wanted = new Set(roles);
  return [...wanted, ...direct].filter(
    (id) => id !== MEMBER_ROLE && wanted.has(id) !== direct.has(id),
  );
}

/**
 * Removes a member of the caller's organization: status `deleted`, every session and IST of
 * theirs ended in the same transaction. A member (`by`, not the host) may not remove the
 * organization's last active admin, themselves included (409 `last_admin`).
 */
export async function deleteOrganizationMember(
  ctx: Context,
  projectId: string,
  organizationId: string,
  memberId: string,
  by: Grantor = 'host',
): Promise<{ member_id: string } | Failure> {
  return allOrNothing(ctx.db, (trx) => {
    const remove = async () => {
      const found = await organizationMember(trx, projectId, organizationId, memberId);
      if ('failure' in found) return found;
      const now = ctx.now();
      if (!(await markMemberDeleted(trx, memberId, now))) return memberNotFound();
      await endMemberSessions(trx, { projectId, memberId, email: found.member.email_address }, now);
      return { member_id: memberId };
    };
    return by === 'host' ? remove() : keepingAnAdmin(trx, projectId, organizationId, remove);
  });
}
