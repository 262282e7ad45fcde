/** Request authentication: public token (+ session) for the SDK API, secret key for the management API. */
import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { isOriginAllowed } from '../products/projects/policy.js';
import type { Project } from '../products/projects/service.js';
import type { PresentedSession } from '../auth/complete.js';
import { findLiveSession } from '../auth/sessions.js';
import { ApiError } from './errors.js';

/** An authenticated SDK call: the project, and the session token if one was sent. */
export interface SdkCaller {
  project: Project;
  /** The session token from `Authorization`, or null when the call is anonymous. */
  sessionToken: string | null;
}

/** Splits `Authorization: Basic base64(user:secret)` at the first colon; null if malformed. */
export function parseBasic(header: string | undefined): { user: string; secret: string } | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function badCredentials(): ApiError {
  return new ApiError(
    'unauthorized_credentials',
    'The public token is missing, malformed or unknown.',
  );
}

/** Projects whose origin check a request already passed (in the CORS hook), so it runs once. */
const originChecked = new WeakMap<FastifyRequest, Project>();

/**
 * Checks the origin and remembers the project for the request's {@link sdkCaller}, so the CORS
 * hook's lookup is not repeated by the handler.
 *
 * @example
 * if (project) checkAndRememberOrigin(project, request);
 */
export function checkAndRememberOrigin(project: Project, request: FastifyRequest): void {
  checkOrigin(project, request);
  originChecked.set(request, project);
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

/** Authenticates an SDK call by public token (401 if bad) and checks its origin (403). */
export async function sdkCaller(ctx: Context, request: FastifyRequest): Promise<SdkCaller> {
  const credential = parseBasic(request.headers.authorization);
  if (!credential || !credential.user.startsWith('public-token-')) throw badCredentials();
  let project = originChecked.get(request);
  if (project?.publicToken !== credential.user) {
    project = (await ctx.projects.byPublicToken(credential.user)) ?? undefined;
    if (!project) throw badCredentials();
    checkOrigin(project, request);
  }
  const anonymous = credential.secret === credential.user || credential.secret === '';
  return { project, sessionToken: anonymous ? null : credential.secret };
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
 * const token = requiredSessionToken(await sdkCaller(ctx, request));
 */
export function requiredSessionToken(caller: SdkCaller): string {
  if (!caller.sessionToken) {
    throw new ApiError('unauthorized_credentials', 'This call needs a session.');
  }
  return caller.sessionToken;
}

/** The caller's live session: 401 when none was sent, 404 `session_not_found` when it is dead. */
export async function requiredSession(ctx: Context, caller: SdkCaller): Promise<PresentedSession> {
  requiredSessionToken(caller);
  const session = await optionalSession(ctx, caller);
  if (!session)
    throw new ApiError('session_not_found', 'The session is unknown, expired or revoked.');
  return session;
}

/** Authenticates a management call by `project_id:secret` (HTTP Basic). */
export async function secretCaller(ctx: Context, request: FastifyRequest): Promise<Project> {
  const credential = parseBasic(request.headers.authorization);
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
