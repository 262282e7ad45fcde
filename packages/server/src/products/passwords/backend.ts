/** What a host backend's password reset start (management API) answers. */
import type { Member } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { Project } from '../../tenancy/projects/service.js';
import { isFailure, type Failure } from '../../result.js';
import { memberRemoved } from '../../tenancy/members/errors.js';
import { memberById, memberEmailId } from '../../tenancy/members/store.js';
import { startPasswordReset, type ResetStartInput } from './reset.js';

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
