/** POST /sdk/v1/b2b/organizations/search: anonymous lookup of an organization by slug (§7.4). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { sdkCaller } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { toSlugSubset } from '@gatehouse/protocol';
import { organizationBySlug } from './store.js';

/** Registers the organization search route. */
export function registerOrganizations(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.organizationsSearch, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    await enforceRateLimits(ctx, [
      {
        key: `search:ip:${request.ip}`,
        limit: ctx.config.rateLimits.searchesPerIpPerMinute,
        windowSeconds: 60,
      },
    ]);
    const org = await organizationBySlug(ctx.db, caller.project.id, body.organization_slug);
    return ok(request, { organization: org ? toSlugSubset(org) : null });
  });
}
