/** CORS for the SDK API only: permissive preflights, `Access-Control-Allow-Origin` on every SDK response, origins checked first. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { checkAndRememberOrigin, parseBasic } from './auth.js';

const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-SDK-Client, X-SDK-Parent-Host';
const SDK_PREFIX = '/sdk/v1';

/**
 * Whether a request is for the SDK API. A matched route is judged by its declared path (so an
 * encoded spelling of the prefix cannot dodge the origin check); an unmatched one by its URL, so
 * the SDK's 404s stay readable to the browser.
 *
 * @example
 * isSdkRequest(request); // true for POST /sdk/v1/b2b/organizations/search
 */
export function isSdkRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? request.url;
  return path === SDK_PREFIX || path.startsWith(`${SDK_PREFIX}/`);
}

/** The public token an SDK request names: in `Authorization`, or in the path (bootstrap). */
function publicTokenOf(request: FastifyRequest): string | null {
  const user = parseBasic(request.headers.authorization)?.user;
  if (user?.startsWith('public-token-')) return user;
  const params = request.params as { public_token?: unknown } | undefined;
  return typeof params?.public_token === 'string' ? params.public_token : null;
}

/**
 * Installs the CORS hooks. Only the SDK API (PROTOCOL §2, §13.6) is meant for browsers on other
 * origins: every response under `/sdk/v1`, errors and 404s included, echoes the origin so the
 * browser lets the client read the error, and an origin the named project does not trust is
 * refused with 403 `unauthorized_origin` before any body is parsed or any handler runs.
 * Everything else (pages, the dev inbox, the management API) sends no CORS headers at all, so
 * another site's scripts cannot read it. Credentials are never allowed: the SDK sends none.
 */
export function installCors(app: FastifyInstance, ctx: Context): void {
  // A callback hook, not an async one: it runs on every request and has usually nothing to
  // await, so it should not cost a promise and a trip through the microtask queue each time.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    if (!isSdkRequest(request)) {
      done();
      return;
    }
    applyCorsHeaders(request, reply);
    if (request.method === 'OPTIONS') {
      // Answering from a callback hook means sending without calling `done`.
      void reply
        .code(204)
        .header('Access-Control-Allow-Methods', ALLOW_METHODS)
        .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
        .header('Access-Control-Max-Age', '600')
        .send();
      return;
    }
    const token = publicTokenOf(request);
    // Requests naming no project (events, unknown routes) are left to their handlers.
    if (token === null) {
      done();
      return;
    }
    ctx.projects
      .byPublicToken(token)
      .then((project) => {
        // An unknown token is the handler's 401; a known one must come from a trusted page.
        if (project) checkAndRememberOrigin(project, request);
      })
      .then(
        () => done(),
        (error: unknown) => done(error as Error),
      );
  });
}

/**
 * Sets the CORS headers of an SDK response. Also used by the handler of framework errors
 * (malformed URLs), which answers before any hook runs.
 */
export function applyCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('Access-Control-Allow-Origin', request.headers.origin ?? '*');
  void reply.header('Vary', 'Origin');
  void reply.header('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
}
