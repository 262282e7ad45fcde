/** The TOTP endpoints of §7.7: create a registration and authenticate a code. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { mfaRequest } from '../../http/mfa-caller.js';
import { authenticateTotp, createTotp } from './service.js';

/** Registers the TOTP routes. */
export function registerTotp(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.totpCreate, async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, ENDPOINTS.totpCreate.body);
    return ok(request, unwrap(await createTotp(ctx, caller, body.expiration_minutes)));
  });

  route(app, ENDPOINTS.totpAuthenticate, async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, ENDPOINTS.totpAuthenticate.body);
    // Six digits are guessable given enough tries: cap the attempts per member.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, caller.member.member_id)]);
    return ok(
      request,
      unwrap(await authenticateTotp(ctx, caller, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
