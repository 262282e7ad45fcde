/** Discovery endpoints (§7.1 discovery authenticate, §7.3). */
import type { FastifyInstance } from 'fastify';
import {
  AUTH_METHODS,
  DEFAULT_SESSION_DURATION_MINUTES,
  type AuthMethod,
} from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { optionalSession, sdkCaller, type SdkCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { fields, parseBody } from '../../http/validate.js';
import {
  authenticateDiscoveryLink,
  createOrganizationByDiscovery,
  discoveryIdentity,
  enterOrganization,
  listDiscovered,
  type DiscoveryIdentity,
} from './service.js';

const ist = z.string().max(200).optional();
const duration = fields.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES);

const AuthenticateBody = z.object({
  discovery_magic_links_token: fields.text.max(200),
  pkce_code_verifier: fields.pkceVerifier.optional(),
});
const ListBody = z.object({ intermediate_session_token: ist });
const CreateBody = z.object({
  intermediate_session_token: ist,
  session_duration_minutes: duration,
  organization_name: fields.text.max(128).optional(),
  organization_slug: fields.text.max(128).optional(),
  organization_logo_url: z.string().max(2048).optional(),
  sso_jit_provisioning: z.string().optional(),
  email_allowed_domains: z.array(z.string().max(253)).max(100).optional(),
  email_invites: z.string().optional(),
  auth_methods: z.enum(['ALL_ALLOWED', 'RESTRICTED']).optional(),
  allowed_auth_methods: z.array(z.enum(AUTH_METHODS as [AuthMethod, ...AuthMethod[]])).optional(),
  mfa_policy: z.enum(['OPTIONAL', 'REQUIRED_FOR_ALL']).optional(),
});
const ExchangeBody = z.object({
  intermediate_session_token: ist,
  organization_id: fields.text.max(200),
  session_duration_minutes: duration,
  locale: z.string().optional(),
});

async function identityOf(
  ctx: Context,
  caller: SdkCaller,
  istToken: string | undefined,
): Promise<DiscoveryIdentity> {
  const session = istToken ? null : await optionalSession(ctx, caller);
  return unwrap(
    await discoveryIdentity(ctx, caller.project, istToken, session, caller.sessionToken !== null),
  );
}

/** Registers the discovery routes. */
export function registerDiscovery(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/magic_links/discovery/authenticate', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(AuthenticateBody, request.body);
    return ok(request, unwrap(await authenticateDiscoveryLink(ctx, caller.project, body)));
  });

  app.post('/sdk/v1/b2b/discovery/organizations', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(ListBody, request.body);
    const identity = await identityOf(ctx, caller, body.intermediate_session_token);
    return ok(request, await listDiscovered(ctx, caller.project, identity));
  });

  app.post('/sdk/v1/b2b/discovery/organizations/create', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const { intermediate_session_token, ...input } = parseBody(CreateBody, request.body);
    const identity = await identityOf(ctx, caller, intermediate_session_token);
    return ok(
      request,
      unwrap(await createOrganizationByDiscovery(ctx, caller.project, identity, input)),
    );
  });

  app.post('/sdk/v1/b2b/discovery/intermediate_sessions/exchange', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(ExchangeBody, request.body);
    const identity = await identityOf(ctx, caller, body.intermediate_session_token);
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(await enterOrganization(ctx, caller.project, identity, body, presented)),
    );
  });
}
