/** The TOTP endpoints of §7.7, create a registration and authenticate a code, for browsers and host backends. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { requireBackendMfaCaller } from '../../http/backend-caller.js';
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

  // The management API's `totps.create` and `authenticate` (secret key), with the same limits.
  route(ENDPOINTS.backendTotpCreate, async (request, { caller: project, parse }) => {
    const body = parse();
    const mfa = await requireBackendMfaCaller(ctx, project, body, 'member');
    const { totp_id, ...created } = unwrap(await createTotp(ctx, mfa, body.expiration_minutes));
    const { member, organization } = mfa;
    return ok(request, {
      member_id: member.member_id,
      member,
      organization,
      totp_registration_id: totp_id,
      ...created,
    });
  });

  route(ENDPOINTS.backendTotpAuthenticate, async (request, { caller: project, parse }) => {
    const body = parse();
    const mfa = await requireBackendMfaCaller(ctx, project, body, 'proof');
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, mfa.member.member_id)]);
    return ok(
      request,
      unwrap(await authenticateTotp(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
