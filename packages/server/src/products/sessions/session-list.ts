/**
 * Session lists (docs/protocol.md §7.10): an admin's view of their organization's live sessions
 * and a member's view of their own, each with the browser that started the session, and ending
 * them. The routes check the admin's permission (`stytch.member` `revoke-sessions`); a member's
 * own sessions need only their live session.
 */
import type { ListedSession, Member } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { endMemberSessions } from '../../auth/revocation.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import type { Project } from '../../tenancy/projects/service.js';
import { organizationMember } from '../members/service.js';
import {
  liveSessionsPage,
  revokeLiveSessionIn,
  type SessionListScope,
  type SessionWithEmail,
} from './store-list.js';

/** The most sessions one page holds when the caller names no limit. */
const DEFAULT_PAGE = 100;
/** The most of a member's own sessions listed at once. */
const OWN_MAX = 1000;

/** Who asks: the member and the session they ask with. */
export interface SessionViewer {
  member: Member;
  sessionId: string;
}

const noSuchSession = (): Failure =>
  fail('session_not_found', 'No live session of your organization has this id.');

function listed(row: SessionWithEmail, viewer: SessionViewer): ListedSession {
  return {
    member_session_id: row.id,
    member_id: row.member_id,
    email_address: row.email_address,
    authentication_factors: JSON.parse(row.factors) as ListedSession['authentication_factors'],
    started_at: row.started_at,
    last_accessed_at: row.last_accessed_at,
    expires_at: row.expires_at,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    current: row.id === viewer.sessionId,
  };
}

/**
 * A page of the live sessions of the viewer's organization, or of one member of it (404
 * `member_not_found` for a member of another organization, unknown or removed).
 *
 * @example
 * const page = await organizationSessions(ctx, project, viewer, { limit: 50 });
 */
export async function organizationSessions(
  ctx: Context,
  project: Project,
  viewer: SessionViewer,
  query: {
    member_id?: string | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
): Promise<
  | {
      member_sessions: ListedSession[];
      results_metadata: { total: number; next_cursor: string | null };
    }
  | Failure
> {
  const organizationId = viewer.member.organization_id;
  if (query.member_id !== undefined) {
    const found = await organizationMember(ctx.db, project.id, organizationId, query.member_id);
    if ('failure' in found) return found;
  }
  const offset = query.cursor ? Number(query.cursor) : 0;
  const scope = { projectId: project.id, organizationId, memberId: query.member_id };
  const page = await liveSessionsPage(ctx.db, scope, ctx.now(), {
    offset,
    limit: query.limit ?? DEFAULT_PAGE,
  });
  const next = offset + page.rows.length;
  return {
    member_sessions: page.rows.map((row) => listed(row, viewer)),
    results_metadata: {
      total: page.total,
      next_cursor: next < page.total ? String(next) : null,
    },
  };
}

/** The viewer's own live sessions, most recently used first. */
export async function ownSessions(
  ctx: Context,
  project: Project,
  viewer: SessionViewer,
): Promise<ListedSession[]> {
  const page = await liveSessionsPage(ctx.db, ownScope(project, viewer), ctx.now(), {
    offset: 0,
    limit: OWN_MAX,
  });
  return page.rows.map((row) => listed(row, viewer));
}

function ownScope(project: Project, viewer: SessionViewer): SessionListScope {
  return {
    projectId: project.id,
    organizationId: viewer.member.organization_id,
    memberId: viewer.member.member_id,
  };
}

/** What a revocation ended. */
export interface Revoked {
  member_id: string;
  revoked_session_ids: string[];
}

/**
 * Ends one live session of the viewer's organization (404 `session_not_found` for any other), or
 * every session and IST of one of its members (404 `member_not_found` for any other).
 *
 * @example
 * await revokeOrganizationSessions(ctx, project, viewer, { member_id: memberId });
 */
export async function revokeOrganizationSessions(
  ctx: Context,
  project: Project,
  viewer: SessionViewer,
  target: { member_session_id?: string | undefined; member_id?: string | undefined },
): Promise<Revoked | Failure> {
  const organizationId = viewer.member.organization_id;
  const now = ctx.now();
  if (target.member_session_id !== undefined) {
    const scope = { projectId: project.id, organizationId };
    const ended = await revokeLiveSessionIn(ctx.db, scope, target.member_session_id, now);
    if (!ended) return noSuchSession();
    return { member_id: ended.member_id, revoked_session_ids: [target.member_session_id] };
  }
  const memberId = target.member_id ?? '';
  return allOrNothing(ctx.db, async (trx) => {
    const found = await organizationMember(trx, project.id, organizationId, memberId);
    if ('failure' in found) return found;
    const { email_address: email } = found.member;
    const ids = await endMemberSessions(trx, { projectId: project.id, memberId, email }, now);
    return { member_id: memberId, revoked_session_ids: ids };
  });
}

/**
 * Ends one of the viewer's own live sessions (404 `session_not_found` for any other, another
 * member's included), or all of theirs but the current one, with their pending ISTs.
 *
 * @example
 * await revokeOwnSessions(ctx, project, viewer, { all_others: true });
 */
export async function revokeOwnSessions(
  ctx: Context,
  project: Project,
  viewer: SessionViewer,
  target: { member_session_id?: string | undefined; all_others?: true | undefined },
): Promise<Revoked | Failure> {
  const now = ctx.now();
  const memberId = viewer.member.member_id;
  if (target.member_session_id !== undefined) {
    const scope = ownScope(project, viewer);
    const ended = await revokeLiveSessionIn(ctx.db, scope, target.member_session_id, now);
    if (!ended) return noSuchSession();
    return { member_id: memberId, revoked_session_ids: [target.member_session_id] };
  }
  const ids = await transaction(ctx.db, (trx) =>
    endMemberSessions(
      trx,
      {
        projectId: project.id,
        memberId,
        email: viewer.member.email_address,
        keepSessionId: viewer.sessionId,
      },
      now,
    ),
  );
  return { member_id: memberId, revoked_session_ids: ids };
}
