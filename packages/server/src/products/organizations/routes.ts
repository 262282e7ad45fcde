/** POST /sdk/v1/b2b/organizations/search: anonymous lookup of an organization by slug (§7.4). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { sdkCaller } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { fields, parseBody } from '../../http/validate.js';
import { organizationBySlug, toSlugSubset } from './service.js';

const SearchBody = z.object({ organization_slug: fields.text.max(128) });

/** Registers the organization search route. */
export function registerOrganizations(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/organizations/search', async (request) => {
    const caller = await sdkCaller(ctx, request);
    const body = parseBody(SearchBody, request.body);
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
