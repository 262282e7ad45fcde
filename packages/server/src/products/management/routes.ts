/** The management API under /v1/b2b for host backends, authenticated by `project_id:secret`. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { parseBasic, secretCaller } from '../../http/auth.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import type { Project } from '../../tenancy/projects/service.js';
import { projectSettings, updateProjectSettings } from '../../tenancy/projects/settings.js';
import { authenticateForBackend, revokeForBackend } from '../sessions/service.js';
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

/** Authenticates a management call and names the secret key it used. */
async function secretKeyCaller(
  ctx: Context,
  request: FastifyRequest,
): Promise<{ project: Project; secretId: string }> {
  const project = await secretCaller(ctx, request);
  const credential = parseBasic(request.headers.authorization);
  const secretId = credential && (await secretIdOf(ctx.db, project.id, credential.secret));
  // Deleted between the two reads: the key is no longer one of the project's.
  if (!secretId) {
    throw new ApiError(
      'unauthorized_credentials',
      'Authenticate with HTTP Basic: project id and secret key.',
    );
  }
  return { project, secretId };
}

/** Registers the management routes. */
export function registerManagement(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.getProject, async (request) => {
    const project = await secretCaller(ctx, request);
    return ok(request, { project: projectSettings(project) });
  });

  route(app, ENDPOINTS.updateProject, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, { project: unwrap(await updateProjectSettings(ctx, project, body)) });
  });

  route(app, ENDPOINTS.createOrganization, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, {
      organization: unwrap(await manageCreateOrganization(ctx, project, body)),
    });
  });

  route(app, ENDPOINTS.getOrganization, async (request) => {
    const project = await secretCaller(ctx, request);
    return ok(request, {
      organization: unwrap(
        await manageGetOrganization(ctx, project, request.params.organization_id),
      ),
    });
  });

  route(app, ENDPOINTS.updateOrganization, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, {
      organization: unwrap(
        await manageUpdateOrganization(ctx, project, request.params.organization_id, body),
      ),
    });
  });

  route(app, ENDPOINTS.updateMember, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    const { organization_id, member_id } = request.params;
    return ok(
      request,
      unwrap(await manageUpdateMember(ctx, project, organization_id, member_id, body)),
    );
  });

  route(app, ENDPOINTS.createMember, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(
      request,
      unwrap(await manageCreateMember(ctx, project, request.params.organization_id, body)),
    );
  });

  route(app, ENDPOINTS.getMember, async (request) => {
    const project = await secretCaller(ctx, request);
    const { organization_id, member_id } = request.params;
    return ok(request, unwrap(await manageGetMember(ctx, project, organization_id, member_id)));
  });

  route(app, ENDPOINTS.setMemberPassword, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    const { organization_id, member_id } = request.params;
    return ok(
      request,
      unwrap(await manageSetMemberPassword(ctx, project, organization_id, member_id, body)),
    );
  });

  route(app, ENDPOINTS.unlockMemberMfa, async (request) => {
    const project = await secretCaller(ctx, request);
    const { organization_id, member_id } = request.params;
    return ok(request, unwrap(await manageUnlockMfa(ctx, project, organization_id, member_id)));
  });

  route(app, ENDPOINTS.authenticateSession, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, unwrap(await authenticateForBackend(ctx, project, body)));
  });

  route(app, ENDPOINTS.revokeSessions, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, unwrap(await revokeForBackend(ctx, project, body)));
  });

  route(app, ENDPOINTS.signingKeys, async (request) => {
    await secretCaller(ctx, request);
    return ok(request, { keys: await ctx.keys.list() });
  });

  route(app, ENDPOINTS.rotateSigningKey, async (request, parse) => {
    await secretCaller(ctx, request);
    parse();
    return ok(request, { key: unwrap(await rotateSigningKey(ctx)) });
  });

  route(app, ENDPOINTS.listSecrets, async (request) => {
    const { project, secretId } = await secretKeyCaller(ctx, request);
    return ok(request, { secrets: await listSecrets(ctx.db, project, secretId) });
  });

  route(app, ENDPOINTS.createSecret, async (request, parse) => {
    const { project } = await secretKeyCaller(ctx, request);
    parse();
    return ok(request, unwrap(await createSecret(ctx, project)));
  });

  route(app, ENDPOINTS.deleteSecret, async (request) => {
    const { project, secretId } = await secretKeyCaller(ctx, request);
    const deleted = await deleteSecret(ctx, project, request.params.secret_id, secretId);
    return ok(request, unwrap(deleted));
  });
}
