/** Session endpoints (§7.5) and the JWKS of session JWTs. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { rawRoute, route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { requiredSession, requiredSessionToken, sdkCaller } from '../../http/auth.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { discoveryIdentity, enterOrganization } from '../discovery/service.js';
import { authenticateSession, revokeSessionById } from './service.js';

/** Registers the session routes and the JWKS. */
export function registerSessions(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.sessionsAuthenticate, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    const token = requiredSessionToken(caller);
    return ok(
      request,
      unwrap(await authenticateSession(ctx, caller.project, token, body.session_duration_minutes)),
    );
  });

  route(app, ENDPOINTS.sessionsRevoke, async (request) => {
    const caller = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, caller);
    await revokeSessionById(ctx, session.row.id);
    return ok(request, {});
  });

  route(app, ENDPOINTS.sessionsExchange, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    const session = await requiredSession(ctx, caller);
    const identity = unwrap(await discoveryIdentity(ctx, caller.project, undefined, session, true));
    return ok(
      request,
      unwrap(await enterOrganization(ctx, caller.project, identity, body, session)),
    );
  });

  rawRoute(app, ENDPOINTS.jwks, async () => ctx.keys.jwks());

  rawRoute(app, ENDPOINTS.jwksByProject, async (request) => {
    const project = await ctx.projects.byId(request.params.project_id);
    if (!project) throw new ApiError('endpoint_not_found', 'No project has this id.');
    return ctx.keys.jwks();
  });
}
