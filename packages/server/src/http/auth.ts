/** Request authentication: public token (+ session) for the SDK API, secret key for the management API. */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { isOriginAllowed } from '../tenancy/projects/policy.js';
import type { Project } from '../tenancy/projects/service.js';
import type { PresentedSession } from '../auth/complete.js';
import { findLiveSession } from '../auth/sessions.js';
import { clientInfo, type ClientInfo } from '../auth/client-info.js';
import type { Member } from '@gatehouse/protocol';
import { sessionRoleIds } from '../tenancy/members/role-sources.js';
import { memberById } from '../tenancy/members/store.js';
import type { Need } from '../tenancy/rbac/builtin-actions.js';
import { unauthorizedAction } from '../tenancy/rbac/errors.js';
import { authorize, unmetNeed } from '../tenancy/rbac/service.js';
import { checkCaptcha } from '../products/captcha/service.js';
import { ApiError, unwrap } from './errors.js';

/** An authenticated SDK call: the project, and the session token if one was sent. */
export interface SdkCaller {
  project: Project;
  /** The session token from `Authorization`, or null when the call is anonymous. */
  sessionToken: string | null;
  /** The browser the call comes from, recorded on the sessions it starts. */
  client: ClientInfo;
}

const PARSED = Symbol('gatehouse.basicCredential');

/** A request that may hold its own `Authorization`, parsed. */
type ParsedRequest = IncomingMessage & { [PARSED]?: BasicCredential | null };

/**
 * The `Authorization` credential of one request, parsed on its first read and kept on that
 * request: the request id, the CORS hook and the caller's authentication each read it. Kept per
 * request, never compared with another request's header, so no caller's credential is ever
 * compared with a stranger's in time that depends on its characters.
 *
 * @example
 * const credential = basicOf(request.raw);
 */
export function basicOf(raw: IncomingMessage): BasicCredential | null {
  const parsed = (raw as ParsedRequest)[PARSED];
  if (parsed !== undefined) return parsed;
  const credential = parseBasic(raw.headers.authorization);
  (raw as ParsedRequest)[PARSED] = credential;
  return credential;
}

/** The browser of a request: its IP address and user agent. */
function clientOf(request: FastifyRequest): ClientInfo {
  return clientInfo(request.ip, request.headers['user-agent']);
}

/** The credential of HTTP Basic: who, and what they present. */
export interface BasicCredential {
  readonly user: string;
  readonly secret: string;
}

/** Splits `Authorization: Basic base64(user:secret)` at the first colon; null if malformed. */
function parseBasic(header: string | undefined): BasicCredential | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return Object.freeze({ user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) });
}

function badCredentials(): ApiError {
  return new ApiError(
    'unauthorized_credentials',
    'The public token is missing, malformed or unknown.',
  );
}

/**
 * The project whose origin check a request already passed (in the CORS hook), so it runs once:
 * kept on the request itself, which every call has anyway (a `WeakMap` entry per request costs
 * the garbage collector more).
 */
const ORIGIN_CHECKED = Symbol('gatehouse.originChecked');
type OriginChecked = FastifyRequest & { [ORIGIN_CHECKED]?: Project };

/**
 * Checks the origin and remembers the project for the request's {@link sdkCaller}, so the CORS
 * hook's lookup is not repeated by the handler.
 *
 * @example
 * if (project) checkAndRememberOrigin(project, request);
 */
export function checkAndRememberOrigin(project: Project, request: FastifyRequest): void {
  checkOrigin(project, request);
  (request as OriginChecked)[ORIGIN_CHECKED] = project;
}

/** Refuses pages whose origin the project does not trust (`Origin`, else `X-SDK-Parent-Host`). */
export function checkOrigin(project: Project, request: FastifyRequest): void {
  const parentHost = request.headers['x-sdk-parent-host'];
  const origin =
    request.headers.origin ?? (typeof parentHost === 'string' ? parentHost : undefined);
  // Calls without either header come from servers and tools, not from a page a browser protects.
  if (origin === undefined) return;
  if (!isOriginAllowed(project, origin)) {
    throw new ApiError(
      'unauthorized_origin',
      `The origin ${origin} is not authorized for this project.`,
    );
  }
}

/**
 * Authenticates an SDK call by public token (401 if bad) and checks its origin (403). On a `D`
 * call (`captcha`) of a project with captcha on, it then checks the `captcha_token` with the
 * provider, before the handler reads the body or acts (400 `captcha_required`/`invalid_captcha`,
 * 503 `captcha_unavailable`). `route()` calls it for the `A`, `S` and `I` endpoints.
 *
 * @example
 * const caller = await sdkCaller(ctx, request, { captcha: endpoint.captcha === true });
 */
export async function sdkCaller(
  ctx: Context,
  request: FastifyRequest,
  { captcha }: { captcha: boolean },
): Promise<SdkCaller> {
  const credential = basicOf(request.raw);
  if (!credential || !credential.user.startsWith('public-token-')) throw badCredentials();
  let project = (request as OriginChecked)[ORIGIN_CHECKED];
  if (project?.publicToken !== credential.user) {
    project = (await ctx.projects.byPublicToken(credential.user)) ?? undefined;
    if (!project) throw badCredentials();
    checkOrigin(project, request);
  }
  if (captcha) {
    const body = request.body;
    const token =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>).captcha_token
        : undefined;
    const refused = await checkCaptcha(ctx, project, token, request.ip);
    if (refused) unwrap(refused);
  }
  const anonymous = credential.secret === credential.user || credential.secret === '';
  return {
    project,
    sessionToken: anonymous ? null : credential.secret,
    client: clientOf(request),
  };
}

/**
 * Authenticates an anonymous SDK call whose public token is in its path (the bootstrap, which a
 * page fetches before it sends anything else): 401 if unknown, 403 for an untrusted origin.
 *
 * @example
 * const caller = await pathTokenCaller(ctx, request, request.params.public_token);
 */
export async function pathTokenCaller(
  ctx: Context,
  request: FastifyRequest,
  publicToken: string,
): Promise<SdkCaller> {
  const project = await ctx.projects.byPublicToken(publicToken);
  if (!project) throw badCredentials();
  checkOrigin(project, request);
  return { project, sessionToken: null, client: clientOf(request) };
}

/** The caller's live session, or null (anonymous-capable calls ignore a dead one, §2). */
export async function optionalSession(
  ctx: Context,
  caller: SdkCaller,
): Promise<PresentedSession | null> {
  if (!caller.sessionToken) return null;
  const row = await findLiveSession(ctx.db, caller.project.id, caller.sessionToken, ctx.now());
  return row ? { row, token: caller.sessionToken } : null;
}

/**
 * The caller's session token, unchecked: 401 when none was sent.
 *
 * @example
 * const token = requiredSessionToken(await sdkCaller(ctx, request, options));
 */
export function requiredSessionToken(caller: SdkCaller): string {
  if (!caller.sessionToken) {
    throw new ApiError('unauthorized_credentials', 'This call needs a session.');
  }
  return caller.sessionToken;
}

/** An SDK call with a live session: what `route()` hands the handler of an `S` endpoint. */
export interface SessionCaller extends SdkCaller {
  sessionToken: string;
  session: PresentedSession;
}

/**
 * The caller's live session: 401 when none was sent, 404 `session_not_found` when it is dead.
 *
 * @example
 * const { session } = await requiredSession(ctx, await sdkCaller(ctx, request, options));
 */
export async function requiredSession(ctx: Context, caller: SdkCaller): Promise<SessionCaller> {
  const sessionToken = requiredSessionToken(caller);
  const session = await optionalSession(ctx, caller);
  if (!session)
    throw new ApiError('session_not_found', 'The session is unknown, expired or revoked.');
  return { project: caller.project, sessionToken, session, client: caller.client };
}

/**
 * Authenticates a management call by `project_id:secret` (HTTP Basic): what `route()` hands the
 * handler of a `secret` endpoint.
 *
 * @example
 * const project = await secretCaller(ctx, request);
 */
export async function secretCaller(ctx: Context, request: FastifyRequest): Promise<Project> {
  const credential = basicOf(request.raw);
  const project = credential
    ? await ctx.projects.verifySecret(credential.user, credential.secret)
    : null;
  if (!project) {
    throw new ApiError(
      'unauthorized_credentials',
      'Authenticate with HTTP Basic: project id and secret key.',
    );
  }
  return project;
}

/** A member-session call (docs/protocol.md §7.10): the project, the session and its member. */
export interface MemberCaller {
  project: Project;
  session: PresentedSession;
  member: Member;
  /** The roles the member holds in this session (`sessionRoleIds`), read from the database. */
  roles: string[];
}

/**
 * Loads the member of a session call; with `permission`, also refuses (403
 * `unauthorized_action`) a member whose current roles do not grant it under the project's current
 * policy. Roles are read from the database, never from the JWT, so a role taken away applies at
 * once; an SSO connection's roles count only while the session holds a factor of that connection
 * (`sessionRoleIds`). Handlers call it before `parse()`, so that a member without the permission
 * never learns the body's shape.
 *
 * @example
 * const { member } = await memberCaller(ctx, caller, ['stytch.member', 'delete']);
 */
export async function memberCaller(
  ctx: Context,
  caller: SessionCaller,
  permission?: readonly [resourceId: string, action: string],
): Promise<MemberCaller> {
  const { project, session } = caller;
  const member = await memberById(ctx.db, project.id, session.row.member_id);
  if (!member || member.status === 'deleted') {
    throw new ApiError('session_not_found', 'The session is unknown, expired or revoked.');
  }
  const roles = sessionRoleIds(member, session.row.factors);
  if (permission) {
    const refused = await authorize(ctx.db, project.id, roles, ...permission);
    if (refused) unwrap(refused);
  }
  return { project, session, member, roles };
}

/**
 * Refuses (403 `unauthorized_action`, naming the first permission missing) a member-session call
 * whose member's roles do not meet every need: an update asks for the action of each field it
 * sends (tenancy/rbac/builtin-actions.ts). Handlers call it with the raw body before `parse()`.
 *
 * @example
 * await authorizeNeeds(ctx, actor, organizationUpdateNeeds(request.body));
 */
export async function authorizeNeeds(
  ctx: Context,
  actor: Pick<MemberCaller, 'project' | 'roles'>,
  needs: readonly Need[],
): Promise<void> {
  const unmet = await unmetNeed(ctx.db, actor.project.id, actor.roles, needs);
  if (unmet) unwrap(unauthorizedAction(...unmet));
}
