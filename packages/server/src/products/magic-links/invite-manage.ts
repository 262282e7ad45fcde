/**
 * Managing pending invitations from a member session (§7.1): resending one (a new link to the
 * invited member, their name and roles kept) and revoking one (the invited member removed, their
 * links voided). Both need `stytch.member` `create`, checked by the route.
 */
import type { Context, Db } from '../../context.js';
import { voidLinkTokens } from '../../auth/link-tokens.js';
import { allOrNothing, type Failure } from '../../result.js';
import { markInvitedMemberDeleted, memberById } from '../../tenancy/members/store.js';
import { memberNotFound } from '../../tenancy/members/errors.js';
import type { Project } from '../../tenancy/projects/service.js';
import type { Grantor } from '../../tenancy/rbac/grants.js';
import type { Member } from '@gatehouse/protocol';
import { invitationNotFound } from './errors.js';
import { inviteMember, memberAlreadyActive, type InviteInput, type Invited } from './invite.js';

/**
 * The invited member of the caller's organization by id: `member_not_found` for ids of other
 * organizations or projects and removed members (as every member-session endpoint answers),
 * `member_already_active` for one who joined, `invitation_not_found` for one never invited.
 */
async function pendingInvitation(
  db: Db,
  projectId: string,
  organizationId: string,
  memberId: string,
): Promise<Member | Failure> {
  const member = await memberById(db, projectId, memberId);
  if (!member || member.organization_id !== organizationId || member.status === 'deleted') {
    return memberNotFound();
  }
  if (member.status === 'active') return memberAlreadyActive();
  return member.status === 'invited' ? member : invitationNotFound();
}

/** What a resend may set; the address, name and roles are the invitation's own. */
export type ResendInput = Pick<
  InviteInput,
  'invite_redirect_url' | 'invite_expiration_minutes' | 'locale'
>;

/**
 * E-mails an invited member of the organization a new invitation link, as inviting their address
 * again does: the name, roles and metadata stay, earlier links stay valid until they expire. A
 * revocation or acceptance that commits first wins: the resend is then refused.
 *
 * @example
 * const sent = await resendInvitation(ctx, project, org.organization_id, memberId, {}, grantor);
 */
export async function resendInvitation(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
  input: ResendInput,
  grantor: Grantor,
): Promise<Invited | Failure> {
  const invited = await pendingInvitation(ctx.db, project.id, organizationId, memberId);
  if ('failure' in invited) return invited;
  return inviteMember(
    ctx,
    project,
    organizationId,
    { ...input, email_address: invited.email_address, resend_of: memberId },
    grantor,
  );
}

/**
 * Revokes a pending invitation: the invited member becomes `deleted` and every link sent to
 * their address for the organization is voided, in one transaction. Conditional on the member
 * still being invited, so of a revocation and an acceptance at the same moment only one wins.
 *
 * @example
 * const revoked = await revokeInvitation(ctx, project, org.organization_id, memberId);
 */
export async function revokeInvitation(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<{ member_id: string } | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const invited = await pendingInvitation(trx, project.id, organizationId, memberId);
    if ('failure' in invited) return invited;
    const now = ctx.now();
    // Links first, then the member: the order an acceptance takes them in, so the two wait for
    // each other instead of deadlocking.
    await voidLinkTokens(
      trx,
      {
        projectId: project.id,
        kind: 'magic_link',
        email: invited.email_address,
        organizationId,
      },
      now,
    );
    if (!(await markInvitedMemberDeleted(trx, memberId, now))) {
      // Accepted or revoked meanwhile: answered as if it had happened first.
      const after = await pendingInvitation(trx, project.id, organizationId, memberId);
      return 'failure' in after ? after : invitationNotFound();
    }
    return { member_id: memberId };
  });
}
