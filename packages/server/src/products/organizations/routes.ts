/**
 * POST /sdk/v1/b2b/organizations/search: anonymous lookup of an organization by slug (§7.4); and
 * GET/PUT /sdk/v1/b2b/organizations/me, the caller's own organization (§7.10).
 */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { authorizeNeeds, memberCaller } from '../../http/auth.js';
import { organizationUpdateNeeds } from '../../tenancy/rbac/builtin-actions.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { memberUpdateOrganization } from './member-update.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { toSlugSubset } from '@gatehouse/protocol';
import { organizationById, organizationBySlug } from '../../tenancy/organizations/store.js';

/** Registers the organization search route. */
export function registerOrganizations(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.organizationsSearch, async (request, { caller, parse }) => {
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

  route(ENDPOINTS.organizationMe, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller);
    const org = await organizationById(ctx.db, project.id, member.organization_id);
    return ok(request, { organization: unwrap(org ?? organizationNotFound()) });
  });

  route(ENDPOINTS.organizationUpdateMe, async (request, { caller, parse }) => {
    // The action of each field sent (tenancy/rbac/builtin-actions.ts), before the body's check.
    const actor = await memberCaller(ctx, caller);
    await authorizeNeeds(ctx, actor, organizationUpdateNeeds(request.body));
    const body = parse();
    const org = await memberUpdateOrganization(ctx, actor.project, actor, body);
    return ok(request, { organization: unwrap(org) });
  });
}
