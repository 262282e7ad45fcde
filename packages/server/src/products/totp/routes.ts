/** The TOTP endpoints of §7.7: create a registration and authenticate a code. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { requireMfaCaller } from '../../http/mfa-caller.js';
import { authenticateTotp, createTotp } from './service.js';

/** Registers the TOTP routes. */
export function registerTotp(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.totpCreate, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    return ok(request, unwrap(await createTotp(ctx, mfa, body.expiration_minutes)));
  });

  route(ENDPOINTS.totpAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    // Six digits are guessable given enough tries: cap the attempts per member.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, mfa.member.member_id)]);
    return ok(
      request,
      unwrap(await authenticateTotp(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
