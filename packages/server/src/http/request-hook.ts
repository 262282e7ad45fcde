/**
 * The one `onRequest` hook of every request: the security headers, the NUL check of the URL and
 * CORS, in that order. Fastify pays for every hook it runs on every request (its hook runner,
 * a call through `next` and a check of the answer each), so the three steps share one.
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { corsHook } from './cors.js';
import type { UrlNulCheck } from './nul-guard.js';
import { installSecurityHeaders } from './security-headers.js';

/** What the request hook needs from the server's configuration. */
export interface RequestHookOptions {
  /** Whether the public URL is https (HSTS is sent then). */
  https: boolean;
  /** The NUL check of the path and query (`nulChecks`). */
  nulInUrl: UrlNulCheck;
}

/**
 * Decides the pages' security headers, then installs the one `onRequest` hook: `nosniff` (and
 * HSTS) on the response, a URL holding NUL refused (400), then CORS, which may answer a preflight
 * itself or wait for the project an SDK call names.
 *
 * @example
 * installRequestHook(app, ctx, { https: false, nulInUrl: nulChecks().url });
 */
export function installRequestHook(
  app: FastifyInstance,
  ctx: Context,
  options: RequestHookOptions,
): void {
  const everywhere = installSecurityHeaders(app, { https: options.https });
  const cors = corsHook(ctx);
  app.addHook('onRequest', function requestHook(request, reply, done) {
    everywhere(reply);
    const refused = options.nulInUrl(request);
    if (refused) {
      done(refused);
      return;
    }
    cors.call(this, request, reply, done);
  });
}
