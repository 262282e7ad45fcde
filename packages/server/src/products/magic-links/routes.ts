/** The magic-link endpoints of §7.1 (invite needs sessions with roles and is not served yet). */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { optionalSession, sdkCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { fields, parseBody } from '../../http/validate.js';
import { limitEmailSends } from './limits.js';
import { authenticateMagicLink, sendDiscovery, sendLoginOrSignup } from './service.js';

const url = z.string().max(2048);
const email = fields.text.max(254);

const LoginOrSignupBody = z.object({
  email_address: email,
  organization_id: fields.text.max(200),
  login_redirect_url: url.optional(),
  signup_redirect_url: url.optional(),
  login_template_id: z.string().optional(),
  signup_template_id: z.string().optional(),
  locale: z.string().optional(),
  pkce_code_challenge: fields.pkceChallenge.optional(),
});

const DiscoverySendBody = z.object({
  email_address: email,
  discovery_redirect_url: url.optional(),
  login_template_id: z.string().optional(),
  locale: z.string().optional(),
  pkce_code_challenge: fields.pkceChallenge.optional(),
});

const AuthenticateBody = z.object({
  magic_links_token: fields.text.max(200),
  session_duration_minutes: fields.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
  locale: z.string().optional(),
  pkce_code_verifier: fields.pkceVerifier.optional(),
  intermediate_session_token: z.string().max(200).optional(),
});

/** Registers the magic-link routes. */
export function registerMagicLinks(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/magic_links/email/login_or_signup', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(LoginOrSignupBody, request.body);
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    unwrap(await sendLoginOrSignup(ctx, caller.project, body));
    return ok(request, {});
  });

  app.post('/sdk/v1/b2b/magic_links/email/discovery/send', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(DiscoverySendBody, request.body);
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    unwrap(await sendDiscovery(ctx, caller.project, body));
    return ok(request, {});
  });

  app.post('/sdk/v1/b2b/magic_links/authenticate', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(AuthenticateBody, request.body);
    const presented = await optionalSession(ctx, caller);
    return ok(request, unwrap(await authenticateMagicLink(ctx, caller.project, body, presented)));
  });
}
