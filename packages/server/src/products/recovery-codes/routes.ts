/** The recovery-code endpoints of §7.7: recover (IST or session), rotate and get (session). */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { requiredSession, sdkCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { fields } from '../../http/validate.js';
import { mfaRequest } from '../sessions/mfa-caller.js';
import { listRecoveryCodes, recoverWithCode, rotateRecoveryCodes } from './service.js';

const RecoverBody = z.object({
  organization_id: fields.text.max(200),
  member_id: fields.text.max(200),
  recovery_code: fields.text.max(64),
  session_duration_minutes: fields.sessionDuration.optional(),
  intermediate_session_token: z.string().max(200).optional(),
});

/** Registers the recovery-code routes. */
export function registerRecoveryCodes(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/recovery_codes/recover', async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, RecoverBody);
    // Shares the TOTP budget: both are ways past the same second factor.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, caller.member.member_id)]);
    return ok(
      request,
      unwrap(await recoverWithCode(ctx, caller, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });

  app.post('/sdk/v1/b2b/recovery_codes/rotate', async (request) => {
    const sdk = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, sdk);
    return ok(request, unwrap(await rotateRecoveryCodes(ctx, sdk.project, session)));
  });

  app.get('/sdk/v1/b2b/recovery_codes', async (request) => {
    const sdk = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, sdk);
    return ok(request, unwrap(await listRecoveryCodes(ctx, sdk.project, session)));
  });
}
