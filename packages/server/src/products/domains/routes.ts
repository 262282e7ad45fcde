/**
 * GET/POST /sdk/v1/b2b/organizations/me/domains, DELETE …/domains/:domain_id and POST
 * …/domains/:domain_id/verify: an organization's admins manage its verified e-mail domains with
 * their own session (docs/protocol.md §7.12), under `stytch.organization`
 * `update.settings.allowed-domains`.
 */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { memberCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { router } from '../../http/route.js';
import { addDomain, listDomains, removeDomain, verifyDomain } from './service.js';

/** Verification lookups one organization may ask for per hour: each is a DNS query we send. */
export const VERIFY_ATTEMPTS_PER_ORGANIZATION_PER_HOUR = 30;

const PERMISSION = ['stytch.organization', 'update.settings.allowed-domains'] as const;

/** Registers the domain routes. */
export function registerDomains(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);

  route(ENDPOINTS.organizationDomains, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller, PERMISSION);
    const domains = await listDomains(ctx, project.id, member.organization_id);
    return ok(request, { domains });
  });

  route(ENDPOINTS.organizationDomainAdd, async (request, { caller, parse }) => {
    const { project, member } = await memberCaller(ctx, caller, PERMISSION);
    const body = parse();
    const domain = await addDomain(ctx, project, member.organization_id, body.domain);
    return ok(request, { domain: unwrap(domain) });
  });

  route(ENDPOINTS.organizationDomainDelete, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller, PERMISSION);
    const removed = await removeDomain(
      ctx,
      project.id,
      member.organization_id,
      request.params.domain_id,
    );
    return ok(request, unwrap(removed));
  });

  route(ENDPOINTS.organizationDomainVerify, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller, PERMISSION);
    await enforceRateLimits(
      ctx,
      [
        {
          key: `domain-verify:org:${member.organization_id}`,
          limit: VERIFY_ATTEMPTS_PER_ORGANIZATION_PER_HOUR,
          windowSeconds: 3600,
        },
      ],
      (seconds) => `Too many verification attempts; try again in ${seconds} seconds.`,
    );
    const verified = await verifyDomain(
      ctx,
      project.id,
      member.organization_id,
      request.params.domain_id,
    );
    return ok(request, { domain: unwrap(verified) });
  });
}
