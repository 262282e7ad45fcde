/**
 * The directory's use cases for host backends and the in-process admin: reading a member by id or
 * address, deleting an organization or a member, bringing a deleted member back, and taking a
 * member's password, phone number or authenticator app away. An organization or member of
 * another project, and a member of another organization, are not found, whatever its id.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../../context.js';
import { allOrNothing, type Failure } from '../../result.js';
import { memberNotFound } from '../../tenancy/members/errors.js';
import { memberByEmail, memberById, updateMemberRow } from '../../tenancy/members/store.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { deleteOrganizationMember } from '../members/service.js';
import { noTotp, passwordNotFound } from './errors.js';
import {
  countMembers,
  deleteOrganizationRows,
  deletePasswordRow,
  deleteSmsCodes,
  deleteTotpRows,
  lockOrganization,
  memberIdOfPassword,
  reactivateMemberRow,
} from './store.js';

/** A member with its organization, as the member calls answer. */
export interface MemberAnswer {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** How `members.get` names the member: by id or by e-mail address. */
export type MemberRef = { member_id: string } | { email_address: string };

const answer = (member: Member, organization: Organization): MemberAnswer => ({
  member_id: member.member_id,
  member,
  organization,
});

/**
 * The organization's member named by id, deleted ones included, or the failure naming what is
 * missing: `organization_not_found` for an organization not of the project, `member_not_found`
 * for a member not of that organization.
 */
async function memberOf(
  db: Db,
  projectId: string,
  organizationId: string,
  memberId: string,
): Promise<MemberAnswer | Failure> {
  const organization = await organizationById(db, projectId, organizationId);
  if (!organization) return organizationNotFound();
  const member = await memberById(db, projectId, memberId);
  if (!member || member.organization_id !== organizationId) return memberNotFound();
  return answer(member, organization);
}

/** {@link memberOf}, with a deleted member not found either. */
async function liveMemberOf(
  db: Db,
  projectId: string,
  organizationId: string,
  memberId: string,
): Promise<MemberAnswer | Failure> {
  const found = await memberOf(db, projectId, organizationId, memberId);
  if ('failure' in found) return found;
  return found.member.status === 'deleted' ? memberNotFound() : found;
}

/**
 * A member of the organization by id or by e-mail address; a deleted member is not found.
 *
 * @example
 * const found = await getMember(ctx, project, orgId, { email_address: 'ada@acme.test' });
 */
export async function getMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  ref: MemberRef,
): Promise<MemberAnswer | Failure> {
  if ('member_id' in ref) return liveMemberOf(ctx.db, project.id, organizationId, ref.member_id);
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  const member = await memberByEmail(ctx.db, organizationId, ref.email_address);
  if (!member || member.status === 'deleted') return memberNotFound();
  return answer(member, organization);
}

/**
 * `organizations.metrics`: how many members the organization has, deleted ones not counted;
 * 404 `organization_not_found` for another project's.
 */
export async function organizationMetrics(
  ctx: Context,
  project: Project,
  organizationId: string,
): Promise<{ member_count: number } | Failure> {
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  return { member_count: await countMembers(ctx.db, project.id, organizationId) };
}

/**
 * Deletes an organization with its members, their factors and sessions, and its SSO connections,
 * all or nothing. The sessions are gone when it returns: none of them authenticates again, on
 * any instance. Of concurrent deletions, one succeeds and the others find no organization.
 */
export async function deleteOrganization(
  ctx: Context,
  project: Project,
  organizationId: string,
): Promise<{ organization_id: string } | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    if (!(await lockOrganization(trx, project.id, organizationId, ctx.now()))) {
      return organizationNotFound();
    }
    await deleteOrganizationRows(trx, project.id, organizationId);
    return { organization_id: organizationId };
  });
}

/**
 * Deletes a member: status `deleted`, every session and IST of theirs ended in the same
 * transaction. Of concurrent deletions, one succeeds and the others answer `member_not_found`.
 */
export async function deleteMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<{ member_id: string } | Failure> {
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  return deleteOrganizationMember(ctx, project.id, organizationId, memberId);
}

/**
 * Makes a deleted member active again, as the provider's `reactivate` does; a member that is not
 * deleted is answered as it is.
 */
export async function reactivateMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<MemberAnswer | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const found = await memberOf(trx, project.id, organizationId, memberId);
    if ('failure' in found) return found;
    if (found.member.status !== 'deleted') return found;
    await reactivateMemberRow(trx, memberId, ctx.now());
    const member = await memberById(trx, project.id, memberId);
    return member ? answer(member, found.organization) : memberNotFound();
  });
}

/** Re-reads a member after a change, with its organization. */
async function reread(db: Db, projectId: string, found: MemberAnswer): Promise<MemberAnswer> {
  const member = await memberById(db, projectId, found.member_id);
  return answer(member ?? found.member, found.organization);
}

/**
 * Changes a live member of the organization in one transaction and answers it re-read; `change`
 * returns a failure to roll back and answer it instead.
 */
async function changeLiveMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
  change: (trx: Db, found: MemberAnswer) => Promise<Failure | undefined>,
): Promise<MemberAnswer | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const found = await liveMemberOf(trx, project.id, organizationId, memberId);
    if ('failure' in found) return found;
    const failure = await change(trx, found);
    return failure ?? reread(trx, project.id, found);
  });
}

/**
 * Removes a member's password, named by its `member_password_id`; the member signs in another
 * way, or sets a new password through a reset.
 */
export async function deleteMemberPassword(
  ctx: Context,
  project: Project,
  organizationId: string,
  passwordId: string,
): Promise<MemberAnswer | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const organization = await organizationById(trx, project.id, organizationId);
    if (!organization) return organizationNotFound();
    const memberId = await memberIdOfPassword(trx, project.id, passwordId);
    if (!memberId) return passwordNotFound();
    const found = await liveMemberOf(trx, project.id, organizationId, memberId);
    if ('failure' in found) return passwordNotFound();
    if (!(await deletePasswordRow(trx, memberId, passwordId, ctx.now()))) {
      return passwordNotFound();
    }
    return reread(trx, project.id, found);
  });
}

/**
 * Removes a member's MFA phone number, unverified, with the SMS codes sent to it; SMS stops being
 * the member's default second factor. A member without a number is answered as it is.
 */
export async function deleteMemberMfaPhoneNumber(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<MemberAnswer | Failure> {
  return changeLiveMember(ctx, project, organizationId, memberId, async (trx, { member }) => {
    await updateMemberRow(trx, memberId, {
      mfa_phone_number: '',
      mfa_phone_verified: 0,
      ...(member.default_mfa_method === 'sms_otp' ? { default_mfa_method: '' } : {}),
      updated_at: isoAt(ctx.now()),
    });
    await deleteSmsCodes(trx, memberId);
    return undefined;
  });
}

/**
 * Removes a member's authenticator app with its recovery codes (`totp_not_found` when there is
 * none); TOTP stops being the member's default second factor.
 */
export async function deleteMemberTotp(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<MemberAnswer | Failure> {
  return changeLiveMember(ctx, project, organizationId, memberId, async (trx, { member }) => {
    const now = ctx.now();
    if (!(await deleteTotpRows(trx, memberId, now))) return noTotp();
    if (member.default_mfa_method === 'totp') {
      await updateMemberRow(trx, memberId, { default_mfa_method: '', updated_at: isoAt(now) });
    }
    return undefined;
  });
}
