/**
 * Session endpoints (§7.5), the session lists of §7.10, the JWKS of session JWTs and the
 * management API's sessions.get and exchange.
 */
import { ENDPOINTS, sessionsGetFields } from '@gatehouse/protocol/endpoints';
import { rawRoute, router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { memberCaller } from '../../http/auth.js';
import { NO_CLIENT } from '../../auth/client-info.js';
import { refuseCustomClaims, requireBackendMember } from '../../http/backend-caller.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { queryOf } from '../../http/pages.js';
import { ok } from '../../http/reply.js';
import { parseBody } from '../../http/validate.js';
import { discoveryIdentity, enterOrganization } from '../discovery/service.js';
import {
  authenticateSession,
  liveSessionsForBackend,
  presentedForBackend,
  revokeSessionById,
} from './service.js';
import {
  organizationSessions,
  ownSessions,
  revokeOrganizationSessions,
  revokeOwnSessions,
} from './session-list.js';

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
      unwrap(await enterOrganization(ctx, caller.project, identity, body, session, caller.client)),
    );
  });

  // Session lists of an admin screen and of a member's own account (§7.10).
  route(ENDPOINTS.organizationSessionsSearch, async (request, { caller, parse }) => {
    const { project, member } = await memberCaller(ctx, caller, [
      'stytch.member',
      'revoke-sessions',
    ]);
    const viewer = { member, sessionId: caller.session.row.id };
    return ok(request, unwrap(await organizationSessions(ctx, project, viewer, parse())));
  });

  route(ENDPOINTS.organizationSessionsRevoke, async (request, { caller, parse }) => {
    const { project, member } = await memberCaller(ctx, caller, [
      'stytch.member',
      'revoke-sessions',
    ]);
    const viewer = { member, sessionId: caller.session.row.id };
    return ok(request, unwrap(await revokeOrganizationSessions(ctx, project, viewer, parse())));
  });

  route(ENDPOINTS.ownSessionsList, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller);
    const viewer = { member, sessionId: caller.session.row.id };
    return ok(request, { member_sessions: await ownSessions(ctx, project, viewer) });
  });

  route(ENDPOINTS.ownSessionsRevoke, async (request, { caller, parse }) => {
    const { project, member } = await memberCaller(ctx, caller);
    const viewer = { member, sessionId: caller.session.row.id };
    return ok(request, unwrap(await revokeOwnSessions(ctx, project, viewer, parse())));
  });

  // The management API's `sessions.get` and `sessions.exchange` (secret key).
  route(ENDPOINTS.backendSessionsGet, async (request, { caller: project }) => {
    // The member is named in the query string, as the provider's SDK sends it.
    const query = parseBody(sessionsGetFields, Object.fromEntries(queryOf(request)));
    const owner = await requireBackendMember(ctx, project, query.organization_id, query.member_id);
    return ok(request, { member_sessions: await liveSessionsForBackend(ctx, project, owner) });
  });

  route(ENDPOINTS.backendSessionsExchange, async (request, { caller: project, parse }) => {
    const body = parse();
    refuseCustomClaims(body.session_custom_claims);
    const session = unwrap(await presentedForBackend(ctx, project, body));
    // The schema requires a token or a JWT, so a session was sent: null cannot happen here.
    if (!session) throw new Error('sessions/exchange without a session');
    // Entering the session's own organization extends it and answers its token, which a JWT
    // alone cannot give back.
    if (session.token === '' && session.row.organization_id === body.organization_id) {
      throw new ApiError(
        'invalid_request',
        'Send session_token to exchange into the session’s own organization; a JWT alone cannot.',
      );
    }
    const identity = unwrap(await discoveryIdentity(ctx, project, undefined, session, true));
    return ok(
      request,
      unwrap(await enterOrganization(ctx, project, identity, body, session, NO_CLIENT)),
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
