/** Discovery endpoints (§7.1 discovery authenticate, §7.3). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { optionalSession, type SdkCaller } from '../../http/auth.js';
import { NO_CLIENT } from '../../auth/client-info.js';
import { backendSignInSession, refuseCustomClaims } from '../../http/backend-caller.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import {
  authenticateDiscoveryLink,
  createOrganizationByDiscovery,
  discoveryIdentity,
  enterOrganization,
  listDiscovered,
  type DiscoveryIdentity,
} from './service.js';

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
  const route = router(app, ctx);
  route(ENDPOINTS.magicLinksDiscoveryAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    return ok(request, unwrap(await authenticateDiscoveryLink(ctx, caller.project, body)));
  });

  route(ENDPOINTS.discoveryOrganizations, async (request, { caller, parse }) => {
    const body = parse();
    const identity = await identityOf(ctx, caller, body.intermediate_session_token);
    return ok(request, await listDiscovered(ctx, caller.project, identity));
  });

  route(ENDPOINTS.discoveryOrganizationsCreate, async (request, { caller, parse }) => {
    const { intermediate_session_token, ...input } = parse();
    const identity = await identityOf(ctx, caller, intermediate_session_token);
    return ok(
      request,
      unwrap(
        await createOrganizationByDiscovery(ctx, caller.project, identity, input, caller.client),
      ),
    );
  });

  route(ENDPOINTS.discoveryExchange, async (request, { caller, parse }) => {
    const body = parse();
    const identity = await identityOf(ctx, caller, body.intermediate_session_token);
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(
        await enterOrganization(ctx, caller.project, identity, body, presented, caller.client),
      ),
    );
  });

  // The management API's calls (secret key): a host backend redeems discovery links, and lists,
  // creates and enters organizations for the holder of an intermediate session token (or, for the
  // list, a session).
  route(
    ENDPOINTS.backendMagicLinksDiscoveryAuthenticate,
    async (request, { caller: project, parse }) => {
      const body = parse();
      return ok(request, unwrap(await authenticateDiscoveryLink(ctx, project, body)));
    },
  );

  route(ENDPOINTS.backendDiscoveryOrganizations, async (request, { caller: project, parse }) => {
    const body = parse();
    const ist = body.intermediate_session_token;
    const session = ist ? null : await backendSignInSession(ctx, project, body);
    const sent = body.session_token !== undefined;
    const identity = unwrap(await discoveryIdentity(ctx, project, ist, session, sent));
    return ok(request, await listDiscovered(ctx, project, identity));
  });

  route(
    ENDPOINTS.backendDiscoveryOrganizationsCreate,
    async (request, { caller: project, parse }) => {
      const { intermediate_session_token, session_custom_claims, ...input } = parse();
      refuseCustomClaims(session_custom_claims);
      const identity = unwrap(
        await discoveryIdentity(ctx, project, intermediate_session_token, null, false),
      );
      return ok(
        request,
        unwrap(await createOrganizationByDiscovery(ctx, project, identity, input, NO_CLIENT)),
      );
    },
  );

  route(ENDPOINTS.backendDiscoveryExchange, async (request, { caller: project, parse }) => {
    const body = parse();
    refuseCustomClaims(body.session_custom_claims);
    const ist = body.intermediate_session_token;
    const identity = unwrap(await discoveryIdentity(ctx, project, ist, null, false));
    return ok(
      request,
      unwrap(await enterOrganization(ctx, project, identity, body, null, NO_CLIENT)),
    );
  });
}
