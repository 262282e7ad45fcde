/**
 * The sessions product's queries for session lists (docs/protocol.md §7.10): an organization's
 * live sessions with their members' addresses, page by page, and ending one of them.
 */
import { isoAt, type Db } from '../../context.js';
import type { SessionsTable } from '../../store/schema.js';

/** A live session row with its member's address. */
export type SessionWithEmail = SessionsTable & { email_address: string };

/** Which live sessions to list: an organization's, or one member's of it. */
export interface SessionListScope {
  projectId: string;
  organizationId: string;
  memberId?: string | undefined;
}

/**
 * A page of the live sessions (unrevoked, unexpired, of a member not removed) in `scope`, most
 * recently used first, and how many there are.
 */
export async function liveSessionsPage(
  db: Db,
  scope: SessionListScope,
  now: number,
  page: { offset: number; limit: number },
): Promise<{ rows: SessionWithEmail[]; total: number }> {
  const at = isoAt(now);
  let base = db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .where('sessions.project_id', '=', scope.projectId)
    .where('sessions.organization_id', '=', scope.organizationId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', at)
    .where('members.status', '!=', 'deleted');
  if (scope.memberId !== undefined) base = base.where('sessions.member_id', '=', scope.memberId);
  const [rows, count] = await Promise.all([
    base
      .selectAll('sessions')
      .select('members.email as email_address')
      .orderBy('sessions.last_accessed_at', 'desc')
      .orderBy('sessions.id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Ends one live session in `scope` (of its member, when the scope names one); the ended session's
 * member, or null when there is no such live session. Conditional, so of concurrent revocations
 * of one session exactly one ends it.
 */
export async function revokeLiveSessionIn(
  db: Db,
  scope: SessionListScope,
  sessionId: string,
  now: number,
): Promise<{ member_id: string } | null> {
  const at = isoAt(now);
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('id', '=', sessionId)
    .where('project_id', '=', scope.projectId)
    .where('organization_id', '=', scope.organizationId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at);
  if (scope.memberId !== undefined) query = query.where('member_id', '=', scope.memberId);
  const ended = await query.returning('member_id').executeTakeFirst();
  return ended ?? null;
}
