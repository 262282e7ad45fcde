/** What a host backend's password reset start and session reset (management API) do. */
import type { Member } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { FullSession, PresentedSession } from '../../auth/complete.js';
import type { Project } from '../../tenancy/projects/service.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { memberRemoved } from '../../tenancy/members/errors.js';
import { memberById, memberEmailId } from '../../tenancy/members/store.js';
import { startPasswordReset, type ResetStartInput } from './reset.js';
import { resetBySession } from './service.js';

/**
 * The management API's `passwords.email.resetStart`: the browser API's send (same checks,
 * redirect allow-lists and refusals), answered with the whole member and their e-mail's id,
 * since the secret key may see them.
 *
 * @example
 * const sent = unwrap(await backendResetStart(ctx, project, body));
 */
export async function backendResetStart(
  ctx: Context,
  project: Project,
  input: ResetStartInput,
): Promise<{ member_id: string; member_email_id: string; member: Member } | Failure> {
  const sent = await startPasswordReset(ctx, project, input);
  if (isFailure(sent)) return sent;
  const member = await memberById(ctx.db, project.id, sent.member_id);
  if (!member) return memberRemoved();
  const memberEmail = await memberEmailId(ctx.db, member.member_id);
  return { member_id: member.member_id, member_email_id: memberEmail, member };
}

/**
 * The management API's `passwords.sessions.reset`: the browser API's reset by session for the
 * session a host backend presents, which must belong to the organization it names (401
 * `unauthorized_credentials` otherwise, as a factor call of another organization's member). No
 * session is 401 too: the secret key alone never sets a member's password this way.
 *
 * @example
 * const reset = unwrap(await backendResetBySession(ctx, project, presented, body));
 */
export async function backendResetBySession(
  ctx: Context,
  project: Project,
  presented: PresentedSession | null,
  input: { organization_id: string; password: string },
): Promise<FullSession | Failure> {
  if (!presented) {
    return fail('unauthorized_credentials', 'This call needs the session_token or session_jwt.');
  }
  if (presented.row.organization_id !== input.organization_id) {
    return fail(
      'unauthorized_credentials',
      "organization_id must be that of the session's member.",
    );
  }
  return resetBySession(ctx, project, presented, input.password);
}
