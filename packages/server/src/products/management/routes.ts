/** The management API under /v1/b2b for host backends, authenticated by `project_id:secret`. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { secretCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { projectSettings, updateProjectSettings } from '../projects/settings.js';
import { authenticateForBackend, revokeForBackend } from '../sessions/service.js';
import { rotateSigningKey } from './keys.js';
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
}
