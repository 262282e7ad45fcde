/** The management API's RBAC routes under /v1/b2b/rbac: the project's roles and resources. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { secretCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { route } from '../../http/route.js';
import {
  deleteResource,
  deleteRole,
  projectPolicy,
  setPolicy,
  setResource,
  setRole,
} from '../../tenancy/rbac/service.js';

/** Registers the RBAC policy routes. */
export function registerRbac(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.rbacPolicyGet, async (request) => {
    const project = await secretCaller(ctx, request);
    return ok(request, { policy: await projectPolicy(ctx.db, project.id) });
  });
  route(app, ENDPOINTS.rbacPolicySet, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, { policy: unwrap(await setPolicy(ctx, project, body)) });
  });
  route(app, ENDPOINTS.rbacRoleSet, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    const policy = await setRole(ctx, project, request.params.role_id, body);
    return ok(request, { policy: unwrap(policy) });
  });
  route(app, ENDPOINTS.rbacRoleDelete, async (request) => {
    const project = await secretCaller(ctx, request);
    const policy = await deleteRole(ctx, project, request.params.role_id);
    return ok(request, { policy: unwrap(policy) });
  });
  route(app, ENDPOINTS.rbacResourceSet, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    const policy = await setResource(ctx, project, request.params.resource_id, body);
    return ok(request, { policy: unwrap(policy) });
  });
  route(app, ENDPOINTS.rbacResourceDelete, async (request) => {
    const project = await secretCaller(ctx, request);
    const policy = await deleteResource(ctx, project, request.params.resource_id);
    return ok(request, { policy: unwrap(policy) });
  });
}
