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
import { authorizeActing, grantorOf, type ActingCheck } from '../../http/acting-member.js';
import { deleteOrganizationMember } from '../members/service.js';
import { memberNeeds, ORGANIZATION_RESOURCE } from '../../tenancy/rbac/builtin-actions.js';
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

/** The factor removals and the action on `stytch.member` (or on `stytch.self`) each needs. */
const FACTOR_ACTIONS = {
  password: 'update.info.delete.password',
  phone: 'update.info.delete.mfa-phone',
  totp: 'update.info.delete.mfa-totp',
} as const;

/**
 * Removing a member's factor with a member's session: anyone's in the organization with the
 * removal's action on `stytch.member`, their own also with it on `stytch.self`.
 */
function factorCheck(
  organizationId: string,
  factor: keyof typeof FACTOR_ACTIONS,
  own: boolean,
): ActingCheck {
  return { organizationId, needs: memberNeeds([FACTOR_ACTIONS[factor]], own) };
}

/** Registers the directory's routes. */
export function registerDirectory(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);

  route(ENDPOINTS.searchOrganizations, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, unwrap(await searchOrganizations(ctx, project, body)));
  });

  route(
    ENDPOINTS.deleteOrganization,
    async (request, { caller: project, acting }) => {
      const organizationId = request.params.organization_id;
      if (acting) {
        const needs = [[[ORGANIZATION_RESOURCE, 'delete']] as const];
        await authorizeActing(ctx, project, acting, { organizationId, needs });
      }
      return ok(request, unwrap(await deleteOrganization(ctx, project, organizationId)));
    },
    { memberSession: true },
  );

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

  route(
    ENDPOINTS.searchMembers,
    async (request, { caller: project, parse, acting }) => {
      const body = parse();
      if (acting) {
        // A member searches their own organization only: every one named must be theirs.
        for (const organizationId of new Set(body.organization_ids)) {
          const needs = memberNeeds(['search'], false);
          await authorizeActing(ctx, project, acting, { organizationId, needs });
        }
      }
      return ok(request, unwrap(await searchMembers(ctx, project, body)));
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.deleteMember,
    async (request, { caller: project, acting }) => {
      const { organization_id, member_id } = request.params;
      if (acting) {
        await authorizeActing(ctx, project, acting, {
          organizationId: organization_id,
          needs: memberNeeds(['delete'], member_id === acting.member.member_id),
        });
        // A member may not remove the organization's last admin (409 `last_admin`).
        const by = grantorOf(acting);
        const removed = await deleteOrganizationMember(
          ctx,
          project.id,
          organization_id,
          member_id,
          by,
        );
        return ok(request, unwrap(removed));
      }
      return ok(request, unwrap(await deleteMember(ctx, project, organization_id, member_id)));
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.reactivateMember,
    async (request, { caller: project, acting }) => {
      const { organization_id, member_id } = request.params;
      if (acting) {
        // As the browser API's reactivation: bringing a member back is adding one.
        await authorizeActing(ctx, project, acting, {
          organizationId: organization_id,
          needs: memberNeeds(['create'], false),
        });
      }
      return ok(request, unwrap(await reactivateMember(ctx, project, organization_id, member_id)));
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.deleteMemberPassword,
    async (request, { caller: project, acting }) => {
      const { organization_id, member_password_id } = request.params;
      if (acting) {
        const own = acting.member.member_password_id === member_password_id;
        await authorizeActing(ctx, project, acting, factorCheck(organization_id, 'password', own));
      }
      const updated = await deleteMemberPassword(ctx, project, organization_id, member_password_id);
      return ok(request, unwrap(updated));
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.deleteMemberMfaPhoneNumber,
    async (request, { caller: project, acting }) => {
      const { organization_id, member_id } = request.params;
      if (acting) {
        const own = member_id === acting.member.member_id;
        await authorizeActing(ctx, project, acting, factorCheck(organization_id, 'phone', own));
      }
      const updated = await deleteMemberMfaPhoneNumber(ctx, project, organization_id, member_id);
      return ok(request, unwrap(updated));
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.deleteMemberTotp,
    async (request, { caller: project, acting }) => {
      const { organization_id, member_id } = request.params;
      if (acting) {
        const own = member_id === acting.member.member_id;
        await authorizeActing(ctx, project, acting, factorCheck(organization_id, 'totp', own));
      }
      return ok(request, unwrap(await deleteMemberTotp(ctx, project, organization_id, member_id)));
    },
    { memberSession: true },
  );
}
