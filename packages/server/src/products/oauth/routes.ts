/** The OAuth routes: provider settings (management API), start and callback (§8), and the SDK completions (§7.6). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { optionalSession, sdkCaller, secretCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { queryOf, redirectOrPage, sendErrorPage } from '../../http/pages.js';
import { ok } from '../../http/reply.js';
import { rawRoute, route } from '../../http/route.js';
import { newToken } from '../../crypto/random.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { oneTapClientId, submitOneTap, submitOneTapDiscovery } from './one-tap.js';
import { finishOAuth } from './callback.js';
import { listProviders, setProvider } from './providers.js';
import { authenticateOAuth, authenticateOAuthDiscovery } from './service.js';
import { startOAuth } from './start.js';

/** The cookie that ties a sign-in's callback to the browser that started it. */
const BROWSER_COOKIE = 'gatehouse_oauth_browser';
/** The paths it is sent to: the starts and the callbacks. */
const BROWSER_COOKIE_PATH = '/v1/b2b/public/oauth/';
/** As long as a started sign-in may return. */
const BROWSER_COOKIE_SECONDS = 10 * 60;
const BINDING = /^[A-Za-z0-9_-]{43}$/;

/** This browser's binding, when it sent one that we could have issued. */
function browserBinding(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === BROWSER_COOKIE) {
      const value = part.slice(at + 1).trim();
      return BINDING.test(value) ? value : null;
    }
  }
  return null;
}

/**
 * Sends the binding cookie: HttpOnly, Lax (the provider's return is a top-level GET, which Lax
 * cookies accompany), Secure unless the server runs on plain http (local development).
 */
function setBrowserBinding(reply: FastifyReply, value: string, secure: boolean): void {
  reply.header(
    'set-cookie',
    `${BROWSER_COOKIE}=${value}; Path=${BROWSER_COOKIE_PATH}; Max-Age=${BROWSER_COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

/** Registers the OAuth routes. */
export function registerOAuth(app: FastifyInstance, ctx: Context): void {
  const page = (request: FastifyRequest, reply: FastifyReply, failure: Failure) =>
    sendErrorPage(request, reply, failure, ctx.config.docsBase);
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: { location: string } | Failure,
  ) => redirectOrPage(request, reply, result, ctx.config.docsBase);

  route(app, ENDPOINTS.oauthProviders, async (request) => {
    const project = await secretCaller(ctx, request);
    return ok(request, { providers: await listProviders(ctx, project) });
  });
  route(app, ENDPOINTS.oauthSetProvider, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, {
      provider: unwrap(await setProvider(ctx, project, request.params.provider, body)),
    });
  });

  const start = (discovery: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    const query = queryOf(request);
    const publicToken = query.get('public_token') ?? '';
    const project = publicToken === '' ? null : await ctx.projects.byPublicToken(publicToken);
    if (!project) {
      return page(
        request,
        reply,
        fail('unauthorized_credentials', 'The public_token is missing or unknown.'),
      );
    }
    const { provider } = request.params as { provider: string };
    // One binding per browser, kept while it has sign-ins under way (two tabs share it).
    const browser = browserBinding(request) ?? newToken();
    const result = await startOAuth(ctx, project, provider, query, discovery, browser);
    if (!isFailure(result)) {
      setBrowserBinding(reply, browser, ctx.config.publicUrl.startsWith('https:'));
    }
    return answer(request, reply, result);
  };
  rawRoute(app, ENDPOINTS.oauthStart, start(false));
  rawRoute(app, ENDPOINTS.oauthDiscoveryStart, start(true));
  rawRoute(app, ENDPOINTS.oauthCallback, async (request, reply) =>
    answer(
      request,
      reply,
      await finishOAuth(ctx, request.params.provider, queryOf(request), browserBinding(request)),
    ),
  );

  route(app, ENDPOINTS.oauthAuthenticate, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    const presented = await optionalSession(ctx, caller);
    return ok(request, unwrap(await authenticateOAuth(ctx, caller.project, body, presented)));
  });
  route(app, ENDPOINTS.oauthDiscoveryAuthenticate, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    return ok(request, unwrap(await authenticateOAuthDiscovery(ctx, caller.project, body)));
  });

  route(app, ENDPOINTS.oneTapStart, async (request) => {
    const caller = await sdkCaller(ctx, request);
    return ok(request, { google_client_id: await oneTapClientId(ctx, caller.project) });
  });
  route(app, ENDPOINTS.oneTapSubmit, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    return ok(request, unwrap(await submitOneTap(ctx, caller.project, body)));
  });
  route(app, ENDPOINTS.oneTapDiscoverySubmit, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    return ok(request, unwrap(await submitOneTapDiscovery(ctx, caller.project, body)));
  });
}
