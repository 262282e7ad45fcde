/** Session endpoints (§7.5) and the JWKS of session JWTs. */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES, JWKS_PATH } from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { requiredSession, sdkCaller } from '../../http/auth.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { fields, parseBody } from '../../http/validate.js';
import { discoveryIdentity, enterOrganization } from '../discovery/service.js';
import { authenticateSession, revokeSessionById } from './lifecycle.js';

const AuthenticateBody = z.object({ session_duration_minutes: fields.sessionDuration.optional() });
const ExchangeBody = z.object({
  organization_id: fields.text.max(200),
  session_duration_minutes: fields.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
  locale: z.string().optional(),
});

/** Registers the session routes and the JWKS. */
export function registerSessions(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/sessions/authenticate', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(AuthenticateBody, request.body);
    const session = await requiredSession(ctx, caller);
    return ok(
      request,
      unwrap(
        await authenticateSession(ctx, caller.project, session, body.session_duration_minutes),
      ),
    );
  });

  app.post('/sdk/v1/b2b/sessions/revoke', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, caller);
    await revokeSessionById(ctx, session.row.id);
    return ok(request, {});
  });

  app.post('/sdk/v1/b2b/sessions/exchange', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(ExchangeBody, request.body);
    const session = await requiredSession(ctx, caller);
    const identity = unwrap(await discoveryIdentity(ctx, caller.project, undefined, session, true));
    return ok(
      request,
      unwrap(await enterOrganization(ctx, caller.project, identity, body, session)),
    );
  });

  app.get(JWKS_PATH, async () => ctx.keys.jwks());

  app.get<{ Params: { project_id: string } }>(
    '/v1/b2b/sessions/jwks/:project_id',
    async (request) => {
      const project = await ctx.projects.byId(request.params.project_id);
      if (!project) throw new ApiError('endpoint_not_found', 'No project has this id.');
      return ctx.keys.jwks();
    },
  );
}
