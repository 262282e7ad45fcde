/** The password endpoints of §7.2. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEFAULT_SESSION_DURATION_MINUTES,
  PASSWORD_SESSION_DURATION_FALLBACK_MINUTES,
} from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { optionalSession, requiredSession, sdkCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { fields, parseBody } from '../../http/validate.js';
import { limitEmailSends } from '../magic-links/limits.js';
import { resetPasswordByEmail, startPasswordReset } from './reset.js';
import {
  authenticatePassword,
  passwordStrength,
  resetByExistingPassword,
  resetBySession,
} from './service.js';

const email = fields.text.max(254);
// Long enough for any passphrase; the bound keeps zxcvbn's and argon2's work per request small.
const password = fields.text.max(256);
const organizationId = fields.text.max(200);
const ist = z.string().max(200).optional();
/** Password login and reset by e-mail fall back to 30 minutes (docs/widget.md §9). */
const passwordDuration = fields.sessionDuration.default(PASSWORD_SESSION_DURATION_FALLBACK_MINUTES);

const AuthenticateBody = z.object({
  organization_id: organizationId,
  email_address: email,
  password,
  session_duration_minutes: passwordDuration,
  locale: z.string().optional(),
  // Sent by the client from its `passwords` PKCE pair; a login has nothing to bind it to.
  code_verifier: z.string().optional(),
  intermediate_session_token: ist,
});

const ResetStartBody = z.object({
  organization_id: organizationId,
  email_address: email,
  login_redirect_url: z.string().max(2048).optional(),
  reset_password_redirect_url: z.string().max(2048).optional(),
  reset_password_expiration_minutes: z
    .number()
    .int('must be an integer')
    .min(5, 'must be at least 5')
    .max(10_080, 'must be at most 10080')
    .optional(),
  reset_password_template_id: z.string().optional(),
  locale: z.string().optional(),
  code_challenge: fields.pkceChallenge.optional(),
});

const ResetByEmailBody = z.object({
  password_reset_token: fields.text.max(200),
  password,
  session_duration_minutes: passwordDuration,
  locale: z.string().optional(),
  code_verifier: fields.pkceVerifier.optional(),
  intermediate_session_token: ist,
});

const ExistingPasswordBody = z.object({
  organization_id: organizationId,
  email_address: email,
  existing_password: password,
  new_password: password,
  session_duration_minutes: fields.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
  locale: z.string().optional(),
});

const SessionResetBody = z.object({ password });

const StrengthCheckBody = z.object({
  password: z.string().max(256),
  email_address: z.string().max(254).optional(),
});

/**
 * Guesses (sign-ins, existing-password resets) are limited per client IP across all addresses,
 * on top of the per-address throttle in the service.
 */
async function limitGuesses(ctx: Context, request: FastifyRequest): Promise<void> {
  await enforceRateLimits(ctx, [
    {
      key: `password:ip:${request.ip}`,
      limit: ctx.config.rateLimits.passwordAttemptsPerIpPerHour,
      windowSeconds: 3600,
    },
  ]);
}

/** Registers the password routes. */
export function registerPasswords(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/passwords/authenticate', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(AuthenticateBody, request.body);
    await limitGuesses(ctx, request);
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(await authenticatePassword(ctx, caller.project, body, presented, request.ip)),
    );
  });

  app.post('/sdk/v1/b2b/passwords/email/reset/start', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(ResetStartBody, request.body);
    // Reset e-mails share the magic-link send limits.
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    return ok(request, unwrap(await startPasswordReset(ctx, caller.project, body)));
  });

  app.post('/sdk/v1/b2b/passwords/email/reset', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(ResetByEmailBody, request.body);
    // A session sent along is not extended: the new password ends it with all the others.
    return ok(request, unwrap(await resetPasswordByEmail(ctx, caller.project, body)));
  });

  app.post('/sdk/v1/b2b/passwords/existing_password/reset', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(ExistingPasswordBody, request.body);
    await limitGuesses(ctx, request);
    // A session sent along is not extended: the new password ends it with all the others.
    return ok(
      request,
      unwrap(await resetByExistingPassword(ctx, caller.project, body, request.ip)),
    );
  });

  app.post('/sdk/v1/b2b/passwords/session/reset', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const session = await requiredSession(ctx, caller);
    const body = parseBody(SessionResetBody, request.body);
    return ok(request, unwrap(await resetBySession(ctx, caller.project, session, body.password)));
  });

  app.post('/sdk/v1/b2b/passwords/strength_check', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(StrengthCheckBody, request.body);
    return ok(
      request,
      await passwordStrength(ctx, caller.project, body.password, body.email_address),
    );
  });
}
