/** The client-side services page (docs/protocol.md §12) and the library it loads. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { rawRoute } from '../../http/route.js';
import { applyPagePolicy } from '../../http/security-headers.js';
import { allAuthorizedOrigins } from '../../tenancy/projects/store.js';
import { phoneLibrary, servicesPage, SERVICES_PAGE_SCRIPT } from './page.js';

/** Registers the page and its library. */
export function registerServicesPage(app: FastifyInstance, ctx: Context): void {
  const page = servicesPage(ENDPOINTS.servicesPageLibrary.path);
  rawRoute(app, ENDPOINTS.servicesPage, async (_request, reply) => {
    // Framed by the apps of the server's projects, and by nobody else.
    const origins = await allAuthorizedOrigins(ctx.db);
    applyPagePolicy(reply, {
      inlineScripts: [SERVICES_PAGE_SCRIPT],
      selfScripts: true,
      frameAncestors: ["'self'", ...origins],
    });
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });
  rawRoute(app, ENDPOINTS.servicesPageLibrary, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(phoneLibrary()),
  );
}
