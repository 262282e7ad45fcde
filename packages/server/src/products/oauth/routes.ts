/** The OAuth routes: provider settings (management API), start and callback (§8), and the SDK completions (§7.6). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { optionalSession } from '../../http/auth.js';
import { NO_CLIENT } from '../../auth/client-info.js';
import { backendSignInSession } from '../../http/backend-caller.js';
import {
  bindingToStart,
  browserBinding,
  OAUTH_BINDING,
  setBrowserBinding,
} from '../../http/browser-binding.js';
import { unwrap } from '../../http/errors.js';
import { queryOf, redirectOrPage, sendErrorPage } from '../../http/pages.js';
import { ok } from '../../http/reply.js';
import { rawRoute, router } from '../../http/route.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { oneTapClientId, submitOneTap, submitOneTapDiscovery } from './one-tap.js';
import { finishOAuth } from './callback.js';
import { listProviders, setProvider } from './providers.js';
import { authenticateOAuth, authenticateOAuthDiscovery } from './service.js';
import { startOAuth } from './start.js';

/** Registers the OAuth routes. */
export function registerOAuth(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  const page = (request: FastifyRequest, reply: FastifyReply, failure: Failure) =>
    sendErrorPage(request, reply, failure, ctx.config.docsBase);
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: { location: string } | Failure,
  ) => redirectOrPage(request, reply, result, ctx.config.docsBase);

  route(ENDPOINTS.oauthProviders, async (request, { caller: project }) => {
    return ok(request, { providers: await listProviders(ctx, project) });
  });
  route(ENDPOINTS.oauthSetProvider, async (request, { caller: project, parse }) => {
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
    const browser = bindingToStart(request, OAUTH_BINDING);
    const result = await startOAuth(ctx, project, provider, query, discovery, browser);
    if (!isFailure(result)) {
      setBrowserBinding(reply, OAUTH_BINDING, browser, ctx.config.publicUrl.startsWith('https:'));
    }
    return answer(request, reply, result);
  };
  rawRoute(app, ENDPOINTS.oauthStart, start(false));
  rawRoute(app, ENDPOINTS.oauthDiscoveryStart, start(true));
  rawRoute(app, ENDPOINTS.oauthCallback, async (request, reply) =>
    answer(
      request,
      reply,
      await finishOAuth(
        ctx,
        request.params.provider,
        queryOf(request),
        browserBinding(request, OAUTH_BINDING),
      ),
    ),
  );

  route(ENDPOINTS.oauthAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const presented = await optionalSession(ctx, caller);
    const outcome = unwrap(
      await authenticateOAuth(ctx, caller.project, body, presented, caller.client),
    );
    // The browser's answer is result AM with the provider's tokens (§7.6), nothing more.
    const { provider_type: _type, provider_subject: _subject, ...result } = outcome;
    return ok(request, result);
  });
  route(ENDPOINTS.oauthDiscoveryAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    return ok(request, unwrap(await authenticateOAuthDiscovery(ctx, caller.project, body)));
  });

  route(ENDPOINTS.oneTapStart, async (request, { caller }) => {
    return ok(request, { google_client_id: await oneTapClientId(ctx, caller.project) });
  });
  route(ENDPOINTS.oneTapSubmit, async (request, { caller, parse }) => {
    const body = parse();
    return ok(request, unwrap(await submitOneTap(ctx, caller.project, body)));
  });
  route(ENDPOINTS.oneTapDiscoverySubmit, async (request, { caller, parse }) => {
    const body = parse();
    return ok(request, unwrap(await submitOneTapDiscovery(ctx, caller.project, body)));
  });

  // The management API's `oauth.authenticate` (secret key): a host backend redeems the token.
  route(ENDPOINTS.backendOAuthAuthenticate, async (request, { caller: project, parse }) => {
    const body = parse();
    const presented = await backendSignInSession(ctx, project, body);
    const outcome = unwrap(await authenticateOAuth(ctx, project, body, presented, NO_CLIENT));
    return ok(request, {
      ...outcome,
      organization_id: outcome.organization.organization_id,
      reset_sessions: false,
    });
  });
}
