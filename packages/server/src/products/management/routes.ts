/** The management API under /v1/b2b for host backends, authenticated by `project_id:secret`. */
import type { Member, Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { basicOf } from '../../http/auth.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import type { Project } from '../../tenancy/projects/service.js';
import { authorizationVerdict } from '../../tenancy/rbac/service.js';
import { projectSettings, updateProjectSettings } from '../../tenancy/projects/settings.js';
import {
  authenticateForBackend,
  revokeForBackend,
  revokeTargetOwner,
} from '../sessions/service.js';
import {
  authorizeActing,
  grantorOf,
  type ActingCheck,
  type ActingMember,
} from '../../http/acting-member.js';
import {
  memberNeeds,
  memberUpdateNeeds,
  organizationUpdateNeeds,
} from '../../tenancy/rbac/builtin-actions.js';
import { refuseRolesNotHeld } from '../../tenancy/rbac/grants.js';
import { memberUpdateOrganization } from '../organizations/member-update.js';
import { updateOrganizationMember } from '../members/service.js';
import { rotateSigningKey } from './keys.js';
import { createSecret, deleteSecret, listSecrets, secretIdOf } from './secrets.js';
import {
  manageCreateMember,
  manageCreateOrganization,
  manageGetMember,
  manageGetOrganization,
  manageSetMemberPassword,
  manageUnlockMfa,
  manageUpdateMember,
  manageUpdateOrganization,
} from './service.js';

/** Names the secret key an authenticated management call used. */
async function secretIdOfCall(
  ctx: Context,
  project: Project,
  request: FastifyRequest,
): Promise<string> {
  const credential = basicOf(request.raw);
  const secretId = credential && (await secretIdOf(ctx.db, project.id, credential.secret));
  // Deleted since route() verified it: the key is no longer one of the project's.
  if (!secretId) {
    throw new ApiError(
      'unauthorized_credentials',
      'Authenticate with HTTP Basic: project id and secret key.',
    );
  }
  return secretId;
}

/** A call about one member, answered as the provider's backend API does: `member_id` beside it. */
function memberAnswer(result: { member: Member; organization: Organization }): {
  member_id: string;
  member: Member;
  organization: Organization;
} {
  return { member_id: result.member.member_id, ...result };
}

/**
 * What a member must be allowed to change a member with their session (the provider's per-field
 * rules): the action of each field sent on `stytch.member`, or on `stytch.self` for their own
 * fields it covers (never their roles nor a phone number's verification).
 */
function memberUpdateCheck(
  params: { organization_id: string; member_id: string },
  body: unknown,
  acting: ActingMember,
): ActingCheck {
  return {
    organizationId: params.organization_id,
    needs: memberUpdateNeeds(body, params.member_id === acting.member.member_id),
  };
}

/** Registers the management routes. */
export function registerManagement(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.getProject, async (request, { caller: project }) => {
    return ok(request, { project: projectSettings(project) });
  });

  route(ENDPOINTS.updateProject, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, { project: unwrap(await updateProjectSettings(ctx, project, body)) });
  });

  route(ENDPOINTS.createOrganization, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, {
      organization: unwrap(await manageCreateOrganization(ctx, project, body)),
    });
  });

  route(ENDPOINTS.getOrganization, async (request, { caller: project }) => {
    return ok(request, {
      organization: unwrap(
        await manageGetOrganization(ctx, project, request.params.organization_id),
      ),
    });
  });

  route(
    ENDPOINTS.updateOrganization,
    async (request, { caller: project, parse, acting }) => {
      const organizationId = request.params.organization_id;
      if (acting) {
        // A member's change, under the rules the browser API holds members to.
        const needs = organizationUpdateNeeds(request.body);
        await authorizeActing(ctx, project, acting, { organizationId, needs });
        const org = await memberUpdateOrganization(ctx, project, acting, parse());
        return ok(request, { organization: unwrap(org) });
      }
      const body = parse();
      return ok(request, {
        organization: unwrap(await manageUpdateOrganization(ctx, project, organizationId, body)),
      });
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.updateMember,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id, member_id } = request.params;
      if (acting) {
        // The fields sent, before the body's check, as the browser API's member update.
        const check = memberUpdateCheck(request.params, request.body, acting);
        await authorizeActing(ctx, project, acting, check);
        const body = parse();
        const updated = await updateOrganizationMember(
          ctx,
          project.id,
          organization_id,
          member_id,
          body,
          grantorOf(acting),
        );
        return ok(request, unwrap(updated));
      }
      const body = parse();
      return ok(
        request,
        memberAnswer(
          unwrap(await manageUpdateMember(ctx, project, organization_id, member_id, body)),
        ),
      );
    },
    { memberSession: true },
  );

  route(
    ENDPOINTS.createMember,
    async (request, { caller: project, parse, acting }) => {
      const organizationId = request.params.organization_id;
      if (acting) {
        const needs = memberNeeds(['create'], false);
        await authorizeActing(ctx, project, acting, { organizationId, needs });
      }
      const { create_member_as_pending: pending, ...body } = parse();
      // A member gives only roles they hold; the host any role of the policy.
      const notHeld = refuseRolesNotHeld(grantorOf(acting), body.roles ?? []);
      if (notHeld) unwrap(notHeld);
      const input = pending === true ? { ...body, status: 'pending' as const } : body;
      return ok(
        request,
        memberAnswer(unwrap(await manageCreateMember(ctx, project, organizationId, input))),
      );
    },
    { memberSession: true },
  );

  route(ENDPOINTS.getMember, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    return ok(
      request,
      memberAnswer(unwrap(await manageGetMember(ctx, project, organization_id, member_id))),
    );
  });

  route(ENDPOINTS.setMemberPassword, async (request, { caller: project, parse }) => {
    const body = parse();
    const { organization_id, member_id } = request.params;
    return ok(
      request,
      memberAnswer(
        unwrap(await manageSetMemberPassword(ctx, project, organization_id, member_id, body)),
      ),
    );
  });

  route(ENDPOINTS.unlockMemberMfa, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    return ok(
      request,
      memberAnswer(unwrap(await manageUnlockMfa(ctx, project, organization_id, member_id))),
    );
  });

  route(ENDPOINTS.authenticateSession, async (request, { caller: project, parse }) => {
    const { authorization_check: check, ...credential } = parse();
    const session = unwrap(await authenticateForBackend(ctx, project, credential));
    if (!check) return ok(request, session);
    // The roles the session carries, as the SDK's local check reads them from its JWT.
    const verdict = await authorizationVerdict(ctx.db, project.id, session.member_session, check);
    return ok(request, { ...session, verdict: unwrap(verdict) });
  });

  route(
    ENDPOINTS.revokeSessions,
    async (request, { caller: project, parse, acting }) => {
      const body = parse();
      if (acting) {
        // A member ends their own sessions freely, another member's with `revoke-sessions`.
        const owner = unwrap(await revokeTargetOwner(ctx, project, body));
        if (owner.member_id !== acting.member.member_id) {
          await authorizeActing(ctx, project, acting, {
            organizationId: owner.organization_id,
            needs: memberNeeds(['revoke-sessions'], false),
          });
        }
      }
      return ok(request, unwrap(await revokeForBackend(ctx, project, body)));
    },
    { memberSession: true },
  );

  route(ENDPOINTS.signingKeys, async (request) => {
    return ok(request, { keys: await ctx.keys.list() });
  });

  route(ENDPOINTS.rotateSigningKey, async (request, { parse }) => {
    parse();
    return ok(request, { key: unwrap(await rotateSigningKey(ctx)) });
  });

  route(ENDPOINTS.listSecrets, async (request, { caller: project }) => {
    const secretId = await secretIdOfCall(ctx, project, request);
    return ok(request, { secrets: await listSecrets(ctx.db, project, secretId) });
  });

  route(ENDPOINTS.createSecret, async (request, { caller: project, parse }) => {
    await secretIdOfCall(ctx, project, request);
    parse();
    return ok(request, unwrap(await createSecret(ctx, project)));
  });

  route(ENDPOINTS.deleteSecret, async (request, { caller: project }) => {
    const secretId = await secretIdOfCall(ctx, project, request);
    const deleted = await deleteSecret(ctx, project, request.params.secret_id, secretId);
    return ok(request, unwrap(deleted));
  });
}
