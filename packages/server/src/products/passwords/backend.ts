/**
 * What a host backend's password sign-in (management API `passwords/authenticate`) presents
 * besides the password, and its reset link sends.
 */
import type { Member } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { PresentedSession } from '../../auth/complete.js';
import { sessionNotFound } from '../../auth/errors.js';
import { findLiveSession } from '../../auth/sessions.js';
import type { Project } from '../../tenancy/projects/service.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { memberRemoved } from '../../tenancy/members/errors.js';
import { memberById, memberEmailId } from '../../tenancy/members/store.js';
import { startPasswordReset, type ResetStartInput } from './reset.js';

/**
 * The session a backend's sign-in extends: the live session of `session_token`, or null when none
 * is sent. A dead token is `session_not_found`, as in `sessions/authenticate`. A JWT alone is
 * refused: the answer carries the session's token, which only the token itself gives back.
 * Custom claims are refused rather than dropped, since sessions carry none.
 *
 * @example
 * const presented = unwrap(await presentedToBackend(ctx, project, body));
 */
export async function presentedToBackend(
  ctx: Context,
  project: Project,
  body: {
    session_token?: string | undefined;
    session_jwt?: string | undefined;
    session_custom_claims?: Record<string, unknown> | undefined;
  },
): Promise<PresentedSession | null | Failure> {
  if (body.session_custom_claims && Object.keys(body.session_custom_claims).length > 0) {
    return fail('invalid_request', 'session_custom_claims are not supported.');
  }
  if (!body.session_token) {
    if (body.session_jwt) {
      return fail('invalid_request', 'Send session_token to extend a session; a JWT alone cannot.');
    }
    return null;
  }
  const row = await findLiveSession(ctx.db, project.id, body.session_token, ctx.now());
  return row ? { row, token: body.session_token } : sessionNotFound();
}

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
