/** When each member last completed a sign-in: written by the sign-in core, never by a session check. */
import type { Db } from '../../context.js';
import { preparedQuery } from '../../store/prepared.js';

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
  await signInRecorded(db, { memberId, at });
}

// Every completed sign-in writes it: built once (see `preparedQuery`).
const signInRecorded = preparedQuery((db, p: { memberId: string; at: string }) =>
  db
    .updateTable('members')
    .set({ last_sign_in_at: p.at })
    .where('id', '=', p.memberId)
    .where((eb) => eb.or([eb('last_sign_in_at', 'is', null), eb('last_sign_in_at', '<', p.at)])),
);
