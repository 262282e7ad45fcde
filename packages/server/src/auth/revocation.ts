/** Ending all of a member's sessions and ISTs at once: after a password change, or on a backend's request. */
import { isoAt, type Db } from '../context.js';

/** Whose sessions to end, and which one (the caller's own) to keep. */
export interface MemberSessionsToEnd {
  projectId: string;
  memberId: string;
  /** The member's e-mail address: unbound ISTs of it can still enter the member's organization. */
  email: string;
  /** A session that survives, e.g. the one that changed the password. */
  keepSessionId?: string | null;
}

/**
 * Revokes every live session of the member except `keepSessionId`, and voids every unused IST
 * that could still become one of its sessions: those bound to the member (MFA pending) and the
 * unbound ones of its address in the project (discovery), which may enter its organization.
 * Returns the ids of the sessions it revoked.
 *
 * @example
 * await endMemberSessions(trx, { projectId, memberId, email, keepSessionId: session.row.id }, now);
 */
export async function endMemberSessions(
  db: Db,
  target: MemberSessionsToEnd,
  now: number,
): Promise<string[]> {
  const at = isoAt(now);
  let sessions = db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('project_id', '=', target.projectId)
    .where('member_id', '=', target.memberId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at);
  if (target.keepSessionId) sessions = sessions.where('id', '!=', target.keepSessionId);
  const revoked = await sessions.returning('id').execute();
  await db
    .updateTable('intermediate_sessions')
    .set({ used_at: at })
    .where('project_id', '=', target.projectId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .where((eb) =>
      eb.or([
        eb('member_id', '=', target.memberId),
        eb.and([eb('member_id', 'is', null), eb('email', '=', target.email)]),
      ]),
    )
    .execute();
  return revoked.map((row) => row.id).sort();
}
