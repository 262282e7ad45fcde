/** Session endpoints (§7.5) and the JWKS of session JWTs. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { rawRoute, router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { discoveryIdentity, enterOrganization } from '../discovery/service.js';
import { authenticateSession, revokeSessionById } from './service.js';

/** Registers the session routes and the JWKS. */
export function registerSessions(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  // The token is required here and its liveness checked by the service, in the one query that
  // refreshes the session (sessions/authenticate is the hot path: bench/RESULTS.md).
  route(
    ENDPOINTS.sessionsAuthenticate,
    async (request, { caller, parse }) => {
      const { project, sessionToken } = caller;
      const duration = parse().session_duration_minutes;
      return ok(request, unwrap(await authenticateSession(ctx, project, sessionToken, duration)));
    },
    { session: 'token' },
  );

  route(ENDPOINTS.sessionsRevoke, async (request, { caller }) => {
    await revokeSessionById(ctx, caller.session.row.id);
    return ok(request, {});
  });

  route(ENDPOINTS.sessionsExchange, async (request, { caller, parse }) => {
    const body = parse();
    const { session } = caller;
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
    // The provider's backend API answer (`sessions.getJWKS`); jose reads `keys` alone.
    return { ...(await ctx.keys.jwks()), request_id: request.id, status_code: 200 };
  });
}
