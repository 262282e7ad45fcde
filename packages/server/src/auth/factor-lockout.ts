/** Second-factor lockout: wrong codes in a row per member and factor kind, counted across every window. */
import { sql } from 'kysely';
import { isoAt, type Context, type Db } from '../context.js';
import { fail, type Failure } from '../result.js';

/**
 * The factor kinds that lock separately. Recovery codes count as `totp`: they are a way past the
 * same second factor, so guessing them must not be a way around its lock.
 */
export type LockableFactor = 'totp' | 'sms_otp';

const LOCKED: Record<LockableFactor, string> = {
  totp: 'Too many wrong codes in a row: authenticator app and recovery codes are locked for this member. Log in again with an email link to unlock them, or ask an administrator.',
  sms_otp:
    'Too many wrong codes in a row: text message codes are locked for this member. Log in again with an email link to unlock them, or ask an administrator.',
};

/**
 * Reserves one attempt of `factor` for the member before its code is checked, so concurrent
 * guesses cannot all slip past the count: one conditional upsert counts it, and only while
 * fewer than `mfaFailuresBeforeLock` attempts have gone unanswered by a success. Returns 403
 * `member_locked` once the bound is reached, or null when the attempt may go ahead. Call
 * {@link factorPassed} when the code is right; a wrong one simply stays counted. The count never
 * expires by itself (unlike the hourly rate limit), which is what bounds guessing over days.
 *
 * @example
 * const locked = await reserveFactorAttempt(ctx, trx, caller.project.id, memberId, 'totp');
 * if (locked) return locked;
 */
export async function reserveFactorAttempt(
  ctx: Context,
  db: Db,
  projectId: string,
  memberId: string,
  factor: LockableFactor,
): Promise<Failure | null> {
  const at = isoAt(ctx.now());
  const reserved = await db
    .insertInto('factor_failures')
    .values({ member_id: memberId, factor, project_id: projectId, failures: 1, updated_at: at })
    .onConflict((oc) =>
      oc
        .columns(['member_id', 'factor'])
        .doUpdateSet({ failures: sql<number>`factor_failures.failures + 1`, updated_at: at })
        // A locked factor is left as it is: refused attempts are not counted further.
        .where('factor_failures.failures', '<', ctx.config.rateLimits.mfaFailuresBeforeLock),
    )
    .returning('failures')
    .executeTakeFirst();
  return reserved ? null : fail('member_locked', LOCKED[factor]);
}

/**
 * Starts the member's count for `factor` over after a right code.
 *
 * @example
 * await factorPassed(trx, memberId, 'totp');
 */
export async function factorPassed(
  db: Db,
  memberId: string,
  factor: LockableFactor,
): Promise<void> {
  await db
    .deleteFrom('factor_failures')
    .where('member_id', '=', memberId)
    .where('factor', '=', factor)
    .execute();
}

/**
 * Unlocks every second factor of a member: after a sign-in by e-mail link (which proves both the
 * primary factor and the address), or by an administrator.
 *
 * @example
 * await unlockFactors(trx, member.member_id);
 */
export async function unlockFactors(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('factor_failures').where('member_id', '=', memberId).execute();
}
