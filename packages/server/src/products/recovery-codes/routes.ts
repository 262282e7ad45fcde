/** The recovery-code endpoints of §7.7: recover (IST or session), rotate and get (session). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { requireMfaCaller } from '../../http/mfa-caller.js';
import { listRecoveryCodes, recoverWithCode, rotateRecoveryCodes } from './service.js';

/** Registers the recovery-code routes. */
export function registerRecoveryCodes(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.recoveryCodesRecover, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    // Shares the TOTP budget: both are ways past the same second factor.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, mfa.member.member_id)]);
    return ok(
      request,
      unwrap(await recoverWithCode(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });

  route(ENDPOINTS.recoveryCodesRotate, async (request, { caller }) =>
    ok(request, unwrap(await rotateRecoveryCodes(ctx, caller.project, caller.session))),
  );

  route(ENDPOINTS.recoveryCodesGet, async (request, { caller }) =>
    ok(request, unwrap(await listRecoveryCodes(ctx, caller.project, caller.session))),
  );
}
