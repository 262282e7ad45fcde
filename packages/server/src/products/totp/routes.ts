/** The TOTP endpoints of §7.7: create a registration and authenticate a code. */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { fields } from '../../http/validate.js';
import { mfaRequest } from '../sessions/mfa-caller.js';
import { authenticateTotp, createTotp } from './service.js';

const id = fields.text.max(200);
const ist = z.string().max(200).optional();

const CreateBody = z.object({
  organization_id: id,
  member_id: id,
  expiration_minutes: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(1440, 'must be at most 1440')
    .optional(),
  intermediate_session_token: ist,
});

const AuthenticateBody = z.object({
  organization_id: id,
  member_id: id,
  code: fields.text.max(32),
  set_mfa_enrollment: z.enum(['enroll', 'unenroll']).optional(),
  set_default_mfa: z.boolean().optional(),
  session_duration_minutes: fields.sessionDuration.optional(),
  intermediate_session_token: ist,
});

/** Registers the TOTP routes. */
export function registerTotp(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/totp', async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, CreateBody);
    return ok(request, unwrap(await createTotp(ctx, caller, body.expiration_minutes)));
  });

  app.post('/sdk/v1/b2b/totp/authenticate', async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, AuthenticateBody);
    // Six digits are guessable given enough tries: cap the attempts per member.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, caller.member.member_id)]);
    return ok(
      request,
      unwrap(await authenticateTotp(ctx, caller, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
