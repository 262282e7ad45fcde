/**
 * A signed-in member removing their own second factors (docs/protocol.md §7.10): the MFA phone
 * number or the authenticator app, only with a session that has passed a second factor itself.
 */
import type { Context } from '../../context.js';
import type { PresentedSession } from '../../auth/complete.js';
import { hasSecondFactor } from '../../auth/mfa-policy.js';
import { fail, type Failure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import type { Member } from '@gatehouse/protocol';
import {
  deleteMemberMfaPhoneNumber,
  deleteMemberTotp,
  type MemberAnswer,
} from '../directory/service.js';

/** Which factor of their own a member removes. */
export type OwnFactor = 'phone' | 'totp';

/**
 * Whether the session itself passed a second factor. A session started before the member
 * enrolled (or stolen from then) has only primary factors, and may not take the factors away.
 */
function passedSecondFactor(session: PresentedSession): boolean {
  const factors = JSON.parse(session.row.factors) as { sequence_order?: string }[];
  return factors.some((f) => f.sequence_order === 'SECONDARY');
}

/**
 * Removes the member's own phone number or authenticator app. Refused (403
 * `unauthorized_action`) when the member has a second factor and this session never passed one.
 *
 * @example
 * const updated = await deleteOwnFactor(ctx, project, session, member, 'totp');
 */
export async function deleteOwnFactor(
  ctx: Context,
  project: Project,
  session: PresentedSession,
  member: Member,
  factor: OwnFactor,
): Promise<MemberAnswer | Failure> {
  if (hasSecondFactor(member) && !passedSecondFactor(session)) {
    return fail(
      'unauthorized_action',
      'Sign in again with your second factor before removing one: this session has not passed it.',
    );
  }
  const remove = factor === 'phone' ? deleteMemberMfaPhoneNumber : deleteMemberTotp;
  return remove(ctx, project, member.organization_id, member.member_id);
}
