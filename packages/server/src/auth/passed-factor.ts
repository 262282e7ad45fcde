/** Completing a code-based second factor: the member's factor columns and enrollment written, then result F. */
import type { AuthenticationFactor, MfaEnrollmentChange } from '@gatehouse/protocol';
import type { Updateable } from 'kysely';
import { isoAt, type Context, type Db } from '../context.js';
import type { MembersTable } from '../store/schema.js';
import { memberById } from '../tenancy/members/store.js';
import type { Failure } from '../result.js';
import type { FullSession } from './complete.js';
import { completeSecondFactor, type MfaCaller } from './secondary.js';
import { memberGone } from './errors.js';

/** A second factor the caller has just passed, and what it changes on the member. */
export interface PassedFactor {
  factor: AuthenticationFactor;
  /** Member columns the factor proves, e.g. the verified phone number. */
  memberColumns: Updateable<MembersTable>;
  /** The call's `set_mfa_enrollment`: absent leaves the member's enrollment as it is. */
  setMfaEnrollment: MfaEnrollmentChange | undefined;
  /** The call's `session_duration_minutes`. */
  durationMinutes: number | undefined;
}

/**
 * Writes the passed factor onto the member, re-reads the member so the session carries the new
 * values, and grants result F through {@link completeSecondFactor}. Runs inside the caller's
 * transaction so the code's redemption and the member update commit together.
 *
 * @example
 * return completePassedFactor(ctx, trx, caller, {
 *   factor: totpFactor(id, now), memberColumns: { totp_registration_id: id },
 *   setMfaEnrollment: input.set_mfa_enrollment, durationMinutes: input.session_duration_minutes,
 * }, defaultDurationMinutes, now);
 */
export async function completePassedFactor(
  ctx: Context,
  trx: Db,
  caller: MfaCaller,
  passed: PassedFactor,
  defaultDurationMinutes: number,
  now: number,
): Promise<FullSession | Failure> {
  const memberId = caller.member.member_id;
  await trx
    .updateTable('members')
    .set({
      ...passed.memberColumns,
      ...(passed.setMfaEnrollment
        ? { mfa_enrolled: passed.setMfaEnrollment === 'enroll' ? 1 : 0 }
        : {}),
      updated_at: isoAt(now),
    })
    .where('id', '=', memberId)
    .execute();
  const member = await memberById(trx, caller.project.id, memberId);
  if (!member) return memberGone();
  return completeSecondFactor(
    ctx,
    trx,
    caller,
    member,
    passed.factor,
    passed.durationMinutes,
    defaultDurationMinutes,
  );
}
