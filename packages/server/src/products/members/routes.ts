/** POST /sdk/v1/b2b/organizations/members/search: anonymous member lookup (§7.4). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { sdkCaller } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { organizationById } from '../organizations/store.js';
import { memberByEmail, normalizeEmail } from './store.js';

/** Registers the member search route. */
export function registerMembers(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.membersSearch, async (request, parse) => {
    const caller = await sdkCaller(ctx, request);
    const body = parse();
    const limit = ctx.config.rateLimits.searchesPerIpPerMinute;
    await enforceRateLimits(ctx, [
      { key: `search:ip:${request.ip}`, limit, windowSeconds: 60 },
      { key: `search:email:${normalizeEmail(body.email_address)}`, limit, windowSeconds: 60 },
    ]);
    const org = await organizationById(ctx.db, caller.project.id, body.organization_id);
    const member = org
      ? await memberByEmail(ctx.db, org.organization_id, body.email_address)
      : null;
    // Only the three fields the widget needs, and nothing for deleted members.
    return ok(request, {
      member:
        member && member.status !== 'deleted'
          ? {
              status: member.status,
              name: member.name,
              member_password_id: member.member_password_id,
            }
          : null,
    });
  });
}
