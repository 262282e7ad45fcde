/** The magic-link endpoints of §7.1 (invite needs sessions with roles and is not served yet). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { optionalSession } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { limitEmailSends } from '../../http/send-limits.js';
import { authenticateMagicLink, sendDiscovery, sendLoginOrSignup } from './service.js';

/** Registers the magic-link routes. */
export function registerMagicLinks(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.magicLinksLoginOrSignup, async (request, { caller, parse }) => {
    const body = parse();
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    unwrap(await sendLoginOrSignup(ctx, caller.project, body));
    return ok(request, {});
  });

  route(ENDPOINTS.magicLinksDiscoverySend, async (request, { caller, parse }) => {
    const body = parse();
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    unwrap(await sendDiscovery(ctx, caller.project, body));
    return ok(request, {});
  });

  route(ENDPOINTS.magicLinksAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const presented = await optionalSession(ctx, caller);
    return ok(request, unwrap(await authenticateMagicLink(ctx, caller.project, body, presented)));
  });
}
