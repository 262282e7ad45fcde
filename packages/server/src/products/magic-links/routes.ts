/** The magic-link endpoints of §7.1, and the management API's invitation. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { memberCaller, optionalSession } from '../../http/auth.js';
import { authorizeActing, grantorOf } from '../../http/acting-member.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { limitEmailSends } from '../../http/send-limits.js';
import { memberById } from '../../tenancy/members/store.js';
import { NO_CLIENT } from '../../auth/client-info.js';
import { backendSignInSession } from '../../http/backend-caller.js';
import { backendLoginOrSignup } from './backend.js';
import { inviteMember } from './invite.js';
import { resendInvitation, revokeInvitation } from './invite-manage.js';
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

  route(ENDPOINTS.magicLinksInvite, async (request, { caller, parse }) => {
    const { project, member, roles } = await memberCaller(ctx, caller, ['stytch.member', 'create']);
    const { organization_id, ...body } = parse();
    // A member invites into their own organization only; naming another is refused, not ignored.
    if (organization_id !== undefined && organization_id !== member.organization_id) {
      throw new ApiError(
        'unauthorized_action',
        'You may invite people only into the organization you are signed in to.',
      );
    }
    await limitEmailSends(ctx, project.id, request.ip, body.email_address);
    const grantor = { memberRoles: roles };
    const invited = await inviteMember(ctx, project, member.organization_id, body, grantor);
    return ok(request, unwrap(invited));
  });

  route(ENDPOINTS.magicLinksInviteResend, async (request, { caller, parse }) => {
    const { project, member, roles } = await memberCaller(ctx, caller, ['stytch.member', 'create']);
    const { member_id, ...body } = parse();
    const invitee = await memberById(ctx.db, project.id, member_id);
    // The send limits of the invitee's address; an unknown id is refused by the service.
    if (invitee) await limitEmailSends(ctx, project.id, request.ip, invitee.email_address);
    const grantor = { memberRoles: roles };
    const sent = await resendInvitation(
      ctx,
      project,
      member.organization_id,
      member_id,
      body,
      grantor,
    );
    return ok(request, unwrap(sent));
  });

  route(ENDPOINTS.magicLinksInviteRevoke, async (request, { caller, parse }) => {
    const { project, member } = await memberCaller(ctx, caller, ['stytch.member', 'create']);
    const { member_id } = parse();
    return ok(
      request,
      unwrap(await revokeInvitation(ctx, project, member.organization_id, member_id)),
    );
  });

  route(
    ENDPOINTS.backendMagicLinksInvite,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id, ...body } = parse();
      // With a member's session, as the browser API's invite: `stytch.member` `create` in their
      // own organization, and only roles they hold.
      if (acting) {
        await authorizeActing(ctx, project, acting, {
          organizationId: organization_id,
          needs: [[['stytch.member', 'create']]],
        });
      }
      await limitEmailSends(ctx, project.id, request.ip, body.email_address);
      const grantor = grantorOf(acting);
      return ok(request, unwrap(await inviteMember(ctx, project, organization_id, body, grantor)));
    },
    { memberSession: true },
  );

  route(ENDPOINTS.magicLinksAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(await authenticateMagicLink(ctx, caller.project, body, presented, caller.client)),
    );
  });

  // The management API's calls (secret key): a host backend sends and redeems links for its
  // members, under the browser API's send limits, redirect allow-lists and single use.
  route(ENDPOINTS.backendMagicLinksLoginOrSignup, async (request, { caller: project, parse }) => {
    const body = parse();
    await limitEmailSends(ctx, project.id, request.ip, body.email_address);
    return ok(request, unwrap(await backendLoginOrSignup(ctx, project, body)));
  });

  route(ENDPOINTS.backendMagicLinksDiscoverySend, async (request, { caller: project, parse }) => {
    const body = parse();
    await limitEmailSends(ctx, project.id, request.ip, body.email_address);
    unwrap(await sendDiscovery(ctx, project, body));
    return ok(request, {});
  });

  route(ENDPOINTS.backendMagicLinksAuthenticate, async (request, { caller: project, parse }) => {
    const body = parse();
    const presented = await backendSignInSession(ctx, project, body);
    const outcome = unwrap(await authenticateMagicLink(ctx, project, body, presented, NO_CLIENT));
    return ok(request, {
      ...outcome,
      organization_id: outcome.organization.organization_id,
      reset_sessions: false,
    });
  });
}
