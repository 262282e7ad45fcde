/** When each member last completed a sign-in: written by the sign-in core, never by a session check. */
import type { Db } from '../../context.js';

/**
 * Records a completed sign-in of the member at `at` (RFC 3339). Never moves the time back, so
 * of two sign-ins committing out of order the later one stays. Does not move `updated_at`: a
 * sign-in is not an edit, and must not refuse an admin's change loaded before it (409
 * `stale_update`).
 *
 * @example
 * await recordSignIn(trx, member.member_id, isoAt(ctx.now()));
 */
export async function recordSignIn(db: Db, memberId: string, at: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ last_sign_in_at: at })
    .where('id', '=', memberId)
    .where((eb) => eb.or([eb('last_sign_in_at', 'is', null), eb('last_sign_in_at', '<', at)]))
    .execute();
}
