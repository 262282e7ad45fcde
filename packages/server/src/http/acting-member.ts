/**
 * Management calls made with a member's session (docs/migrate.md, "Calls made with a member's
 * session"): the provider's backend SDK sends `options.authorization` as the
 * `X-Stytch-Member-Session` or `X-Stytch-Member-SessionJWT` header, and the call is then
 * authorized as that member, under the project's RBAC policy, on top of the secret key.
 */
import type { Member } from '@gatehouse/protocol';
import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { presentedForBackend } from '../products/sessions/service.js';
import { sessionRoleIds } from '../tenancy/members/role-sources.js';
import { memberById } from '../tenancy/members/store.js';
import type { Project } from '../tenancy/projects/service.js';
import { sessionAuthorizationError, sessionTenancyError } from '../tenancy/rbac/errors.js';
import type { Grantor } from '../tenancy/rbac/grants.js';
import type { Need } from '../tenancy/rbac/builtin-actions.js';
import { unmetNeed } from '../tenancy/rbac/service.js';
import { ApiError, unwrap } from './errors.js';

/** The headers the provider's SDK sends a member's session in (Fastify lower-cases names). */
export const MEMBER_SESSION_HEADER = 'x-stytch-member-session';
export const MEMBER_SESSION_JWT_HEADER = 'x-stytch-member-sessionjwt';

const DEAD = 'The member session sent with the call is unknown, expired or revoked.';

/** The member a management call acts as, from the live session it carries. */
export interface ActingMember {
  member: Member;
  /** The session's id. */
  sessionId: string;
  /** The session's organization: the only one the call may be about. */
  organizationId: string;
  /**
   * The roles the member holds in this session (`sessionRoleIds`), read from the database, never
   * from a JWT.
   */
  roles: string[];
}

/** One header's value: undefined when absent, 400 when sent twice. */
function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) {
    throw new ApiError('invalid_request', `Send the ${name} header once.`);
  }
  return value;
}

/**
 * Whether the request carries a member's session header, whatever its value.
 *
 * @example
 * if (carriesMemberSession(request)) throw new ApiError('invalid_request', '…');
 */
export function carriesMemberSession(request: FastifyRequest): boolean {
  return (
    request.headers[MEMBER_SESSION_HEADER] !== undefined ||
    request.headers[MEMBER_SESSION_JWT_HEADER] !== undefined
  );
}

/**
 * The member a management call acts as: null when it carries no session header (the secret key
 * alone decides, as before); otherwise the session must be a live session of the project, by
 * token or by a JWT this server signed (an IST, another project's session or a JWT of another key
 * is 404 `session_not_found`), of a member not deleted. Both headers must name the same session.
 * A header that is sent is never ignored, even empty.
 *
 * @example
 * const acting = await actingMember(ctx, project, request);
 */
export async function actingMember(
  ctx: Context,
  project: Project,
  request: FastifyRequest,
): Promise<ActingMember | null> {
  const token = headerOf(request, MEMBER_SESSION_HEADER);
  const jwt = headerOf(request, MEMBER_SESSION_JWT_HEADER);
  if (token === undefined && jwt === undefined) return null;
  const byToken =
    token === undefined ? null : await liveSession(ctx, project, { session_token: token });
  const byJwt = jwt === undefined ? null : await liveSession(ctx, project, { session_jwt: jwt });
  if (byToken && byJwt && byToken.id !== byJwt.id) {
    throw new ApiError('invalid_request', 'The session token and JWT name different sessions.');
  }
  const row = byToken ?? byJwt;
  if (!row) throw new ApiError('session_not_found', DEAD);
  const member = await memberById(ctx.db, project.id, row.member_id);
  if (!member || member.status === 'deleted' || member.organization_id !== row.organization_id) {
    throw new ApiError('session_not_found', DEAD);
  }
  return {
    member,
    sessionId: row.id,
    organizationId: row.organization_id,
    roles: sessionRoleIds(member, row.factors),
  };
}

/** The live session row of a token or JWT, refusing (404) anything else, empty included. */
async function liveSession(
  ctx: Context,
  project: Project,
  credential: { session_token?: string; session_jwt?: string },
) {
  if (!credential.session_token && !credential.session_jwt) {
    throw new ApiError('session_not_found', DEAD);
  }
  const presented = unwrap(await presentedForBackend(ctx, project, credential));
  if (!presented) throw new ApiError('session_not_found', DEAD);
  return presented.row;
}

/** What a call does, for {@link authorizeActing}. */
export interface ActingCheck {
  /** The organization the call is about. */
  organizationId: string;
  /**
   * What the call needs, every one (an update: the action of each field it sends,
   * tenancy/rbac/builtin-actions.ts); a member's own change may be allowed by `stytch.self`.
   */
  needs: readonly Need[];
}

/**
 * Refuses a call its acting member may not make: 403 `session_authorization_tenancy_error` when
 * it is about another organization than the session's, 403 `session_authorization_error` naming
 * the first permission the member's roles do not grant. The policy is the one the browser API
 * enforces. Called before the call changes anything.
 *
 * @example
 * await authorizeActing(ctx, project, acting, { organizationId, needs: memberNeeds(['delete'], false) });
 */
export async function authorizeActing(
  ctx: Context,
  project: Project,
  acting: ActingMember,
  check: ActingCheck,
): Promise<void> {
  if (check.organizationId !== acting.organizationId) unwrap(sessionTenancyError());
  const unmet = await unmetNeed(ctx.db, project.id, acting.roles, check.needs);
  if (unmet) unwrap(sessionAuthorizationError(...unmet));
}

/**
 * Who grants roles in a call: the host with the secret key alone, or the acting member, who may
 * give only roles they hold (products/rbac/grants.ts).
 *
 * @example
 * const grantor = grantorOf(acting);
 */
export function grantorOf(acting: ActingMember | null): Grantor {
  return acting ? { memberRoles: acting.roles } : 'host';
}
