/**
 * The management API's organization and member calls of the provider's backend SDK:
 * `organizations.search`, `delete` and `metrics`, and `organizations.members.get`, `search`, `delete`,
 * `reactivate`, `deletePassword`, `deleteMFAPhoneNumber` and `deleteTOTP`.
 */
import { ENDPOINTS, memberLookupFields } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { queryOf } from '../../http/pages.js';
import { ok } from '../../http/reply.js';
import { router } from '../../http/route.js';
import { parseBody } from '../../http/validate.js';
import { searchMembers, searchOrganizations } from './search.js';
import {
  deleteMember,
  deleteMemberMfaPhoneNumber,
  deleteMemberPassword,
  deleteMemberTotp,
  deleteOrganization,
  getMember,
  organizationMetrics,
  reactivateMember,
} from './service.js';

/** Registers the directory's routes. */
export function registerDirectory(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);

  route(ENDPOINTS.searchOrganizations, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, unwrap(await searchOrganizations(ctx, project, body)));
  });

  route(ENDPOINTS.deleteOrganization, async (request, { caller: project }) => {
    const deleted = await deleteOrganization(ctx, project, request.params.organization_id);
    return ok(request, unwrap(deleted));
  });

  route(ENDPOINTS.organizationMetrics, async (request, { caller: project }) => {
    const metrics = await organizationMetrics(ctx, project, request.params.organization_id);
    return ok(request, unwrap(metrics));
  });

  route(ENDPOINTS.lookupMember, async (request, { caller: project }) => {
    // The member is named in the query string, as the provider's SDK sends it.
    const query = parseBody(memberLookupFields, Object.fromEntries(queryOf(request)));
    const ref = query.member_id
      ? { member_id: query.member_id }
      : { email_address: query.email_address ?? '' };
    const found = await getMember(ctx, project, request.params.organization_id, ref);
    return ok(request, unwrap(found));
  });

  route(ENDPOINTS.searchMembers, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, unwrap(await searchMembers(ctx, project, body)));
  });

  route(ENDPOINTS.deleteMember, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    return ok(request, unwrap(await deleteMember(ctx, project, organization_id, member_id)));
  });

  route(ENDPOINTS.reactivateMember, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    return ok(request, unwrap(await reactivateMember(ctx, project, organization_id, member_id)));
  });

  route(ENDPOINTS.deleteMemberPassword, async (request, { caller: project }) => {
    const { organization_id, member_password_id } = request.params;
    const updated = await deleteMemberPassword(ctx, project, organization_id, member_password_id);
    return ok(request, unwrap(updated));
  });

  route(ENDPOINTS.deleteMemberMfaPhoneNumber, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    const updated = await deleteMemberMfaPhoneNumber(ctx, project, organization_id, member_id);
    return ok(request, unwrap(updated));
  });

  route(ENDPOINTS.deleteMemberTotp, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    return ok(request, unwrap(await deleteMemberTotp(ctx, project, organization_id, member_id)));
  });
}
