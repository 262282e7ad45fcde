/**
 * POST /sdk/v1/b2b/organizations/members/search: anonymous member lookup (§7.4); and the
 * member-session endpoints about members (§7.10), each guarded by the project's RBAC policy,
 * removals of a member's MFA phone number, authenticator app and password included.
 */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { authorizeNeeds, memberCaller } from '../../http/auth.js';
import {
  memberNeeds,
  memberUpdateNeeds,
  selfUpdateNeeds,
} from '../../tenancy/rbac/builtin-actions.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { memberByEmail, normalizeEmail, searchMembers } from '../../tenancy/members/store.js';
import {
  deleteMemberMfaPhoneNumber,
  deleteMemberPassword,
  deleteMemberTotp,
  reactivateMember,
} from '../directory/service.js';
import {
  deleteOrganizationMember,
  organizationMember,
  updateOrganizationMember,
} from './service.js';
import { deleteOwnFactor } from './own-factors.js';

/** The most members one search page holds when the caller names no limit. */
const DEFAULT_PAGE = 100;

/** Registers the member search route. */
export function registerMembers(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.membersSearch, async (request, { caller, parse }) => {
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

  route(ENDPOINTS.memberMe, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller);
    const self = await organizationMember(
      ctx.db,
      project.id,
      member.organization_id,
      member.member_id,
    );
    return ok(request, unwrap(self));
  });

  route(ENDPOINTS.memberUpdateSelf, async (request, { caller, parse }) => {
    const actor = await memberCaller(ctx, caller);
    await authorizeNeeds(ctx, actor, selfUpdateNeeds(request.body));
    const { project, member } = actor;
    const body = parse();
    const updated = await updateOrganizationMember(
      ctx,
      project.id,
      member.organization_id,
      member.member_id,
      body,
    );
    return ok(request, unwrap(updated));
  });

  // The member's own second factors: no member id on the path, so no one else's can be named.
  route(ENDPOINTS.memberDeleteSelfMfaPhoneNumber, async (request, { caller }) => {
    const permission = ['stytch.self', 'update.info.delete.mfa-phone'] as const;
    const { project, session, member } = await memberCaller(ctx, caller, permission);
    return ok(request, unwrap(await deleteOwnFactor(ctx, project, session, member, 'phone')));
  });

  route(ENDPOINTS.memberDeleteSelfTotp, async (request, { caller }) => {
    const permission = ['stytch.self', 'update.info.delete.mfa-totp'] as const;
    const { project, session, member } = await memberCaller(ctx, caller, permission);
    return ok(request, unwrap(await deleteOwnFactor(ctx, project, session, member, 'totp')));
  });

  route(ENDPOINTS.organizationMembersSearch, async (request, { caller, parse }) => {
    const { member } = await memberCaller(ctx, caller, ['stytch.member', 'search']);
    const body = parse();
    const offset = body.cursor ? Number(body.cursor) : 0;
    const limit = body.limit ?? DEFAULT_PAGE;
    const found = await searchMembers(ctx.db, member.organization_id, body.query, {
      offset,
      limit,
    });
    const next = offset + found.members.length;
    return ok(request, {
      members: found.members,
      results_metadata: {
        total: found.total,
        next_cursor: next < found.total ? String(next) : null,
      },
    });
  });

  route(ENDPOINTS.memberUpdate, async (request, { caller, parse }) => {
    // The action of each field sent on `stytch.member`; for the caller's own fields that
    // `stytch.self` covers, on either (tenancy/rbac/builtin-actions.ts).
    const actor = await memberCaller(ctx, caller);
    const own = request.params.member_id === actor.member.member_id;
    await authorizeNeeds(ctx, actor, memberUpdateNeeds(request.body, own));
    const { project, member, roles } = actor;
    const body = parse();
    const updated = await updateOrganizationMember(
      ctx,
      project.id,
      member.organization_id,
      request.params.member_id,
      body,
      { memberRoles: roles },
    );
    return ok(request, unwrap(updated));
  });

  route(ENDPOINTS.memberReactivate, async (request, { caller }) => {
    const { project, member } = await memberCaller(ctx, caller, ['stytch.member', 'create']);
    const reactivated = await reactivateMember(
      ctx,
      project,
      member.organization_id,
      request.params.member_id,
    );
    return ok(request, unwrap(reactivated));
  });

  route(ENDPOINTS.memberDelete, async (request, { caller }) => {
    // Another member with `stytch.member` `delete`; oneself also with `stytch.self` `delete`.
    const actor = await memberCaller(ctx, caller);
    const own = request.params.member_id === actor.member.member_id;
    await authorizeNeeds(ctx, actor, memberNeeds(['delete'], own));
    const { project, member, roles } = actor;
    const deleted = await deleteOrganizationMember(
      ctx,
      project.id,
      member.organization_id,
      request.params.member_id,
      { memberRoles: roles },
    );
    return ok(request, unwrap(deleted));
  });

  // An admin resetting a member's second factors and password: the management API's removals,
  // within the caller's organization.
  route(ENDPOINTS.memberDeleteMfaPhoneNumber, async (request, { caller }) => {
    const permission = ['stytch.member', 'update.info.delete.mfa-phone'] as const;
    const { project, member } = await memberCaller(ctx, caller, permission);
    const { organization_id } = member;
    const updated = await deleteMemberMfaPhoneNumber(
      ctx,
      project,
      organization_id,
      request.params.member_id,
    );
    return ok(request, unwrap(updated));
  });

  route(ENDPOINTS.memberDeleteTotp, async (request, { caller }) => {
    const permission = ['stytch.member', 'update.info.delete.mfa-totp'] as const;
    const { project, member } = await memberCaller(ctx, caller, permission);
    const { organization_id } = member;
    const updated = await deleteMemberTotp(ctx, project, organization_id, request.params.member_id);
    return ok(request, unwrap(updated));
  });

  route(ENDPOINTS.memberDeletePassword, async (request, { caller }) => {
    const permission = ['stytch.member', 'update.info.delete.password'] as const;
    const { project, member } = await memberCaller(ctx, caller, permission);
    const passwordId = request.params.member_password_id;
    const updated = await deleteMemberPassword(ctx, project, member.organization_id, passwordId);
    return ok(request, unwrap(updated));
  });
}
