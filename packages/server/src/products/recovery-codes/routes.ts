/** The recovery-code endpoints of §7.7: recover (IST or session), rotate and get (session). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { requiredSession, sdkCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { mfaRequest } from '../../http/mfa-caller.js';
import { listRecoveryCodes, recoverWithCode, rotateRecoveryCodes } from './service.js';

/** Registers the recovery-code routes. */
export function registerRecoveryCodes(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.recoveryCodesRecover, async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, ENDPOINTS.recoveryCodesRecover.body);
    // Shares the TOTP budget: both are ways past the same second factor.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, caller.member.member_id)]);
    return ok(
      request,
      unwrap(await recoverWithCode(ctx, caller, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });

  route(app, ENDPOINTS.recoveryCodesRotate, async (request) => {
    const sdk = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, sdk);
    return ok(request, unwrap(await rotateRecoveryCodes(ctx, sdk.project, session)));
  });

  route(app, ENDPOINTS.recoveryCodesGet, async (request) => {
    const sdk = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, sdk);
    return ok(request, unwrap(await listRecoveryCodes(ctx, sdk.project, session)));
  });
}
