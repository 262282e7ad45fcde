/** Brute-force lockout of password sign-in: failed attempts per member in a window opened by the first. */
import { sql } from 'kysely';
import { isoAt, type Db } from '../../context.js';
import type { PasswordLockoutConfig } from '../../config.js';

/** Whether a member's password sign-in is locked, and until when. */
export type LockState = { locked: false } | { locked: true; until: string };

/** When the window of failures that opened at `windowStart` closes. */
function windowEnd(windowStart: string, config: PasswordLockoutConfig): string {
  return isoAt(Date.parse(windowStart) + config.windowMinutes * 60_000);
}

/**
 * Whether the member has used up the failed attempts of the current window. The lock ends when
 * the window does, or earlier when the password is reset ({@link clearFailures}).
 *
 * @example
 * const state = await lockState(db, member.member_id, ctx.config.passwordLockout, ctx.now());
 */
export async function lockState(
  db: Db,
  memberId: string,
  config: PasswordLockoutConfig,
  now: number,
): Promise<LockState> {
  const row = await db
    .selectFrom('password_failures')
    .select(['failures', 'window_start'])
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  if (!row || Number(row.failures) < config.maxFailures) return { locked: false };
  const until = windowEnd(row.window_start, config);
  return until > isoAt(now) ? { locked: true, until } : { locked: false };
}

/**
 * Counts one failed attempt. A failure after the window has ended opens a new window. One atomic
 * upsert, so attempts racing on several instances are all counted.
 */
export async function recordFailure(
  db: Db,
  projectId: string,
  memberId: string,
  config: PasswordLockoutConfig,
  now: number,
): Promise<void> {
  const at = isoAt(now);
  // A window that started at or before this instant has ended.
  const staleBefore = isoAt(now - config.windowMinutes * 60_000);
  await db
    .insertInto('password_failures')
    .values({ member_id: memberId, project_id: projectId, failures: 1, window_start: at })
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({
        // SET expressions read the old row, so both see the stored window.
        failures: sql<number>`CASE WHEN password_failures.window_start <= ${staleBefore} THEN 1 ELSE password_failures.failures + 1 END`,
        window_start: sql<string>`CASE WHEN password_failures.window_start <= ${staleBefore} THEN ${at} ELSE password_failures.window_start END`,
      }),
    )
    .execute();
}

/** Forgets the member's failed attempts: after a successful sign-in or a new password. */
export async function clearFailures(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('password_failures').where('member_id', '=', memberId).execute();
}
