/** Session authenticate and revoke, for browsers (§7.5) and host backends (management API). */
import type { Member, MemberSession, Organization } from '@gatehouse/protocol';
import { errors as joseErrors, jwtVerify } from 'jose';
import { isoAt, type Context } from '../../context.js';
import { memberById } from '../../tenancy/members/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import {
  fullSession,
  fullSessionNow,
  type FullSession,
  type PresentedSession,
} from '../../auth/complete.js';
import { endMemberSessions } from '../../auth/revocation.js';
import {
  organizationSessionLifetime,
  findLiveSession,
  findLiveSessionById,
  liveSessionOrNull,
  revokeSession,
  SESSION_CLAIM,
  settledTouch,
  toMemberSession,
  touchSession,
} from '../../auth/sessions.js';
import { hashToken } from '../../crypto/random.js';
import {
  liveSessionsOfMember,
  rememberedSessionByTokenHash,
  sessionWithOwnerById,
  sessionWithOwnerByTokenHash,
  type SessionWithOwner,
} from './store.js';
import { memberNotFound } from '../../tenancy/members/errors.js';

const DEAD = 'The session is unknown, expired or revoked.';

/**
 * Refreshes a live session by its token: `last_accessed_at` now, expiry reset when a duration is
 * given (never past the absolute lifetime), the same token back and a fresh JWT (§7.5). The token
 * is never rotated. A token that is unknown, expired, revoked or of another project, or whose
 * member is deleted, is `session_not_found`. The hot path of every browser refresh: the session,
 * its member, roles and organization come from one query.
 */
export async function authenticateSession(
  ctx: Context,
  project: Project,
  token: string,
  durationMinutes: number | undefined,
): Promise<FullSession | Failure> {
  const tokenHash = hashToken(token);
  const found =
    rememberedSessionByTokenHash(ctx.db, tokenHash) ??
    (await sessionWithOwnerByTokenHash(ctx.db, tokenHash));
  if (!found || !liveSessionOrNull(found.row, project.id, ctx.now())) {
    return fail('session_not_found', DEAD);
  }
  const refresh = { token, durationMinutes };
  return (
    settledRefresh(ctx, project, found, refresh) ?? refreshSession(ctx, project, found, refresh)
  );
}

interface Refresh {
  token: string;
  durationMinutes: number | undefined;
}

/**
 * {@link refreshSession} without waiting, for the commonest check: a remembered session checked
 * again within the access resolution, whose JWT is reused. Null for anything else, which
 * `refreshSession` decides, refusals included.
 */
function settledRefresh(
  ctx: Context,
  project: Project,
  { row: current, member, organization }: SessionWithOwner,
  { token, durationMinutes }: Refresh,
): FullSession | null {
  if (member.status === 'deleted') return null;
  const now = ctx.now();
  const row = settledTouch(current, now, {
    durationMinutes,
    maxLifetimeMinutes: organizationSessionLifetime(ctx, project, organization),
  });
  if (!row || row.expires_at <= isoAt(now)) return null;
  return fullSessionNow(ctx, project, organization, member, row, token);
}

async function refreshSession(
  ctx: Context,
  project: Project,
  { row: current, member, organization }: SessionWithOwner,
  { token, durationMinutes }: Refresh,
): Promise<FullSession | Failure> {
  if (member.status === 'deleted') return fail('session_not_found', DEAD);
  const now = ctx.now();
  const row = await touchSession(ctx.db, current, now, {
    durationMinutes,
    maxLifetimeMinutes: organizationSessionLifetime(ctx, project, organization),
  });
  // A session started before the lifetime (the project's or its organization's) was lowered
  // can end at this very refresh.
  if (row.expires_at <= isoAt(now)) return fail('session_not_found', DEAD);
  return fullSession(ctx, project, organization, member, row, token);
}

/** Ends a session. */
export async function revokeSessionById(ctx: Context, sessionId: string): Promise<void> {
  await revokeSession(ctx.db, sessionId, ctx.now());
}

/**
 * What a host backend revokes: exactly one of a session by id (`member_session_id`, the
 * provider's name, or `session_id`), token or JWT, or a member's all.
 */
export interface RevokeTarget {
  member_session_id?: string | undefined;
  session_id?: string | undefined;
  session_token?: string | undefined;
  session_jwt?: string | undefined;
  member_id?: string | undefined;
}

/** What a revoke ended. */
export interface RevokedSessions {
  member_id: string;
  revoked_session_ids: string[];
}

/**
 * Revokes sessions for a host backend (management API, CLI): one live session by id or token
 * (404 `session_not_found` if it is unknown, expired or already revoked), or every session of a
 * member of the project together with its ISTs (404 `member_not_found` for an unknown member;
 * a member without sessions is not an error).
 */
export async function revokeForBackend(
  ctx: Context,
  project: Project,
  target: RevokeTarget,
): Promise<RevokedSessions | Failure> {
  const now = ctx.now();
  if (target.member_id !== undefined) {
    const member = await memberById(ctx.db, project.id, target.member_id);
    if (!member) return memberNotFound();
    const revoked = await transaction(ctx.db, (trx) =>
      endMemberSessions(
        trx,
        { projectId: project.id, memberId: member.member_id, email: member.email_address },
        now,
      ),
    );
    return { member_id: member.member_id, revoked_session_ids: revoked };
  }
  const row = await namedSession(ctx, project, target, now);
  if (!row) return fail('session_not_found', DEAD);
  await revokeSession(ctx.db, row.id, now);
  return { member_id: row.member_id, revoked_session_ids: [row.id] };
}

/** The live session a revoke names by id, token or JWT, or null. */
async function namedSession(ctx: Context, project: Project, target: RevokeTarget, now: number) {
  const id =
    target.member_session_id ??
    target.session_id ??
    (target.session_jwt ? await verifiedSessionId(ctx, project, target.session_jwt) : null);
  return target.session_token
    ? findLiveSession(ctx.db, project.id, target.session_token, now)
    : id
      ? findLiveSessionById(ctx.db, project.id, id, now)
      : null;
}

/**
 * Whose sessions a host backend's revoke would end, before it does: the member and their
 * organization, so that a call made with a member's session can be authorized first. Refuses as
 * {@link revokeForBackend} does what it would refuse.
 *
 * @example
 * const owner = unwrap(await revokeTargetOwner(ctx, project, { member_id }));
 */
export async function revokeTargetOwner(
  ctx: Context,
  project: Project,
  target: RevokeTarget,
): Promise<{ member_id: string; organization_id: string } | Failure> {
  if (target.member_id !== undefined) {
    const member = await memberById(ctx.db, project.id, target.member_id);
    if (!member) return memberNotFound();
    return { member_id: member.member_id, organization_id: member.organization_id };
  }
  const row = await namedSession(ctx, project, target, ctx.now());
  if (!row) return fail('session_not_found', DEAD);
  return { member_id: row.member_id, organization_id: row.organization_id };
}

/** What a host backend learns about a session. */
export type BackendSession = Pick<
  FullSession,
  'member' | 'organization' | 'session_token' | 'session_jwt'
> & {
  member_session: MemberSession;
};

/**
 * Authenticates a session for a host backend by opaque token or by JWT. A JWT must verify
 * (signature, issuer, audience = project, expiry) and its session must still be live, so a
 * revoked session is refused before its last JWT expires.
 */
export async function authenticateForBackend(
  ctx: Context,
  project: Project,
  credential: { session_token?: string | undefined; session_jwt?: string | undefined },
): Promise<BackendSession | Failure> {
  const now = ctx.now();
  let found: SessionWithOwner | null = null;
  if (credential.session_token) {
    found = await sessionWithOwnerByTokenHash(ctx.db, hashToken(credential.session_token));
  } else if (credential.session_jwt) {
    const sessionId = await verifiedSessionId(ctx, project, credential.session_jwt);
    found = sessionId ? await sessionWithOwnerById(ctx.db, sessionId) : null;
  }
  if (!found || !liveSessionOrNull(found.row, project.id, now)) {
    return fail('session_not_found', DEAD);
  }
  const result = await refreshSession(ctx, project, found, {
    token: credential.session_token ?? '',
    durationMinutes: undefined,
  });
  if ('failure' in result) return result;
  return {
    member: result.member,
    organization: result.organization,
    member_session: result.member_session,
    session_token: result.session_token,
    session_jwt: result.session_jwt,
  };
}

/**
 * The live session a host backend presents with a factor call or an exchange: by
 * `session_token`, or by `session_jwt` (then with the token unknown: ''). Null when it sends
 * neither; `session_not_found` when what it sends is not a live session of the project.
 */
export async function presentedForBackend(
  ctx: Context,
  project: Project,
  credential: { session_token?: string | undefined; session_jwt?: string | undefined },
): Promise<PresentedSession | null | Failure> {
  const now = ctx.now();
  if (credential.session_token) {
    const row = await findLiveSession(ctx.db, project.id, credential.session_token, now);
    return row ? { row, token: credential.session_token } : fail('session_not_found', DEAD);
  }
  if (credential.session_jwt) {
    const id = await verifiedSessionId(ctx, project, credential.session_jwt);
    const row = id ? await findLiveSessionById(ctx.db, project.id, id, now) : null;
    return row ? { row, token: '' } : fail('session_not_found', DEAD);
  }
  return null;
}

/** A member's live sessions, newest first, as `sessions.get` of the management API lists them. */
export async function liveSessionsForBackend(
  ctx: Context,
  project: Project,
  owner: { member: Member; organization: Organization },
): Promise<MemberSession[]> {
  const { member, organization } = owner;
  const rows = await liveSessionsOfMember(ctx.db, project.id, member.member_id, isoAt(ctx.now()));
  return rows.map((row) => toMemberSession(row, member, organization.organization_slug));
}

async function verifiedSessionId(
  ctx: Context,
  project: Project,
  jwt: string,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(jwt, await ctx.keys.keySet(), {
      issuer: ctx.config.publicUrl,
      audience: project.id,
      algorithms: ['RS256'],
      currentDate: new Date(ctx.now()),
    });
    const claim = payload[SESSION_CLAIM] as { id?: unknown } | undefined;
    return typeof claim?.id === 'string' ? claim.id : null;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}
