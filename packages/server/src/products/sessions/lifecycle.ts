/** Session authenticate and revoke, for browsers (§7.5) and host backends (management API). */
import type { MemberSession } from '@gatehouse/protocol';
import { errors as joseErrors, jwtVerify, createLocalJWKSet } from 'jose';
import type { Context } from '../../context.js';
import { memberById } from '../members/service.js';
import { organizationById } from '../organizations/service.js';
import type { Project } from '../projects/service.js';
import { fail, type Failure } from '../result.js';
import { fullSession, type FullSession, type PresentedSession } from './complete.js';
import { findLiveSession, findLiveSessionById, revokeSession, touchSession } from './service.js';

const DEAD = 'The session is unknown, expired or revoked.';

/**
 * Refreshes a live session: `last_accessed_at` now, expiry reset when a duration is given, the
 * same token back and a fresh JWT (§7.5). The token is never rotated.
 */
export async function authenticateSession(
  ctx: Context,
  project: Project,
  session: PresentedSession,
  durationMinutes: number | undefined,
): Promise<FullSession | Failure> {
  const [member, org] = await Promise.all([
    memberById(ctx.db, project.id, session.row.member_id),
    organizationById(ctx.db, project.id, session.row.organization_id),
  ]);
  if (!member || !org || member.status === 'deleted') return fail('session_not_found', DEAD);
  const row = await touchSession(ctx.db, session.row, ctx.now(), durationMinutes);
  return fullSession(ctx, project, org, member, row, session.token);
}

/** Ends a session. */
export async function revokeSessionById(ctx: Context, sessionId: string): Promise<void> {
  await revokeSession(ctx.db, sessionId, ctx.now());
}

/** What a host backend learns about a session. */
export type BackendSession = Pick<FullSession, 'member' | 'organization' | 'session_jwt'> & {
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
  let presented: PresentedSession | null = null;
  if (credential.session_token) {
    const row = await findLiveSession(ctx.db, project.id, credential.session_token, now);
    if (row) presented = { row, token: credential.session_token };
  } else if (credential.session_jwt) {
    const sessionId = await verifiedSessionId(ctx, project, credential.session_jwt);
    const row = sessionId ? await findLiveSessionById(ctx.db, project.id, sessionId, now) : null;
    if (row) presented = { row, token: '' };
  }
  if (!presented) return fail('session_not_found', DEAD);
  const result = await authenticateSession(ctx, project, presented, undefined);
  if ('failure' in result) return result;
  return {
    member: result.member,
    organization: result.organization,
    member_session: result.member_session,
    session_jwt: result.session_jwt,
  };
}

async function verifiedSessionId(
  ctx: Context,
  project: Project,
  jwt: string,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(await ctx.keys.jwks()), {
      issuer: ctx.config.publicUrl,
      audience: project.id,
      algorithms: ['RS256'],
      currentDate: new Date(ctx.now()),
    });
    const claim = payload['https://gatehouse.dev/session'] as { id?: unknown } | undefined;
    return typeof claim?.id === 'string' ? claim.id : null;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}
