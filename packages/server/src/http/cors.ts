/**
 * CORS for the SDK API only: origins checked first, `Access-Control-Allow-Origin` on every SDK
 * response, credentials allowed to trusted origins alone.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Context } from '../context.js';
import type { Project } from '../tenancy/projects/service.js';
import { basicOf, checkAndRememberOrigin } from './auth.js';
import { routeOf } from './route-of.js';

const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-SDK-Client, X-SDK-Parent-Host';
const SDK_PREFIX = '/sdk/v1';
/**
 * Header names in lower case, as Fastify keeps them: a name it must lower-case is a new string,
 * looked up in V8's table of property names on every call. And V8 shares one string per property
 * name: `vary`, alive as long as this module, makes that string the compact one-byte kind. Left to
 * chance, it has been a two-byte one, and Node then copied every answer's headers and body into
 * a two-byte string before writing them (bench/RESULTS.md, 2026-11-26 evening).
 */
const VARY = 'vary';
const REQUEST_ID = 'x-request-id';
const ALLOW_ORIGIN = 'access-control-allow-origin';
const ALLOW_CREDENTIALS = 'access-control-allow-credentials';
const EXPOSE_HEADERS = 'access-control-expose-headers';

/**
 * Whether a request is for the SDK API. A matched route is judged by its declared path (so an
 * encoded spelling of the prefix cannot dodge the origin check); an unmatched one by its URL, so
 * the SDK's 404s stay readable to the browser.
 *
 * @example
 * isSdkRequest(request); // true for POST /sdk/v1/b2b/organizations/search
 */
export function isSdkRequest(request: FastifyRequest): boolean {
  const path = routeOf(request).url ?? request.url;
  return path === SDK_PREFIX || path.startsWith(`${SDK_PREFIX}/`);
}

/** The public token an SDK request names: in `Authorization`, or in the path (bootstrap). */
function publicTokenOf(request: FastifyRequest): string | null {
  const user = basicOf(request.raw)?.user;
  if (user?.startsWith('public-token-')) return user;
  const params = request.params as { public_token?: unknown } | undefined;
  return typeof params?.public_token === 'string' ? params.public_token : null;
}

/**
 * The CORS hook (`installRequestHook` runs it in its one `onRequest` hook). Only the SDK API (PROTOCOL §2, §13.6) is meant for browsers on other
 * origins: every response under `/sdk/v1`, errors and 404s included, echoes the origin so the
 * browser lets the client read the error, and an origin the named project does not trust is
 * refused with 403 `unauthorized_origin` before any body is parsed or any handler runs.
 * Credentialed calls (the published SDK 6.x sends every call with `credentials: 'include'`) are
 * allowed to trusted origins only: the named project's, or, where no project is named
 * (preflights, events, unknown tokens), some project's. Nothing under `/sdk/v1` reads a cookie,
 * so the credentials a browser attaches there carry no authority.
 * Everything else (pages, the dev inbox, the management API) sends no CORS headers at all, so
 * another site's scripts cannot read it.
 */
export function corsHook(ctx: Context): onRequestHookHandler {
  // A callback hook, not an async one: it runs on every request and has usually nothing to
  // await, so it should not cost a promise and a trip through the microtask queue each time.
  return function cors(request, reply, done) {
    void reply.header(REQUEST_ID, request.id);
    if (!isSdkRequest(request)) {
      done();
      return;
    }
    const origin = request.headers.origin;
    if (request.method === 'OPTIONS') {
      answerPreflight(ctx, origin, reply);
      return;
    }
    applyCorsHeaders(request, reply);
    const token = publicTokenOf(request);
    // Calls from no page that name no project (tools, health checks) have nothing to look up.
    if (origin === undefined && token === null) {
      done();
      return;
    }
    // Most calls name a project looked up moments ago: answered at once, without a promise.
    const cached = token === null ? undefined : ctx.projects.cachedByPublicToken(token);
    if (cached) {
      try {
        trustProjectOrigin(cached, request, reply, origin);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
      return;
    }
    trustOrigin(ctx, request, reply, origin, token).then(
      () => done(),
      (error: unknown) => done(error as Error),
    );
  };
}

/**
 * A known project's origin check (403 if it does not trust the page), and credentials allowed
 * to the page it has just accepted.
 */
function trustProjectOrigin(
  project: Project,
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string | undefined,
): void {
  checkAndRememberOrigin(project, request);
  // `Origin` is what the project checks first: it has just accepted it.
  if (origin !== undefined) allowCredentials(reply, origin);
}

/**
 * Checks the origin of an SDK call against the project it names (403 if untrusted) and allows
 * credentials when the origin is trusted: by that project, or by some project when the call names
 * none or an unknown one (then its handler answers, 401 for an unknown token).
 */
async function trustOrigin(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string | undefined,
  token: string | null,
): Promise<void> {
  const project = token === null ? null : await ctx.projects.byPublicToken(token);
  // A known project refuses an untrusted page here, before credentials are ever allowed.
  if (project) {
    trustProjectOrigin(project, request, reply, origin);
    return;
  }
  if (origin !== undefined && (await ctx.projects.authorizesAnywhere(origin))) {
    allowCredentials(reply, origin);
  }
}

/**
 * Answers a preflight (204). It names no project, so an origin that some project trusts gets the
 * allow headers with credentials; any other origin gets none, and the browser stops there. A
 * preflight without `Origin` (not from a browser) is answered for any origin, without credentials.
 */
function answerPreflight(ctx: Context, origin: string | undefined, reply: FastifyReply): void {
  const send = (allowed: boolean) => {
    void reply.header(VARY, 'Origin');
    if (allowed) {
      if (origin === undefined) void reply.header(ALLOW_ORIGIN, '*');
      else allowCredentials(reply, origin);
      void reply
        .header('Access-Control-Allow-Methods', ALLOW_METHODS)
        .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
        .header('Access-Control-Max-Age', '600');
    }
    // Answering from a callback hook means sending without calling `done`.
    void reply.code(204).send();
  };
  if (origin === undefined) {
    send(true);
    return;
  }
  ctx.projects.authorizesAnywhere(origin).then(send, (error: unknown) => reply.send(error));
}

/** Lets the browser share a credentialed response with `origin`: echoed exactly, never `*`. */
function allowCredentials(reply: FastifyReply, origin: string): void {
  void reply.header(ALLOW_ORIGIN, origin).header(ALLOW_CREDENTIALS, 'true').header(VARY, 'Origin');
}

/**
 * Sets the CORS headers of an SDK response, without credentials. Also used by the handler of
 * framework errors (malformed URLs), which answers before any hook runs.
 */
export function applyCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header(ALLOW_ORIGIN, request.headers.origin ?? '*');
  void reply.header(VARY, 'Origin');
  void reply.header(EXPOSE_HEADERS, 'X-Request-Id, Retry-After');
}
