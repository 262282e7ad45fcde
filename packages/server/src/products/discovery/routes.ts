/** Discovery endpoints (§7.1 discovery authenticate, §7.3). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { optionalSession, type SdkCaller } from '../../http/auth.js';
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
      unwrap(await createOrganizationByDiscovery(ctx, caller.project, identity, input)),
    );
  });

  route(ENDPOINTS.discoveryExchange, async (request, { caller, parse }) => {
    const body = parse();
    const identity = await identityOf(ctx, caller, body.intermediate_session_token);
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(await enterOrganization(ctx, caller.project, identity, body, presented)),
    );
  });
}
