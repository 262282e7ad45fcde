/**
 * The management API's RBAC routes under /v1/b2b/rbac: the project's roles and resources, and the
 * organizations' own (empty) policies.
 */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { RbacPolicy } from '@gatehouse/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { router } from '../../http/route.js';
import {
  deleteResource,
  deleteRole,
  projectPolicy,
  setPolicy,
  setResource,
  setRole,
} from '../../tenancy/rbac/service.js';
import { orgPolicy, setOrgPolicy } from './service.js';

/** The policy as the provider's backend API answers it, with its (here always empty) `scopes`. */
function withScopes(policy: RbacPolicy): { policy: RbacPolicy & { scopes: never[] } } {
  return { policy: { ...policy, scopes: [] } };
}

/** Registers the RBAC policy routes. */
export function registerRbac(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.rbacPolicyGet, async (request, { caller: project }) => {
    return ok(request, withScopes(await projectPolicy(ctx.db, project.id)));
  });
  route(ENDPOINTS.rbacPolicySet, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, withScopes(unwrap(await setPolicy(ctx, project, body))));
  });
  route(ENDPOINTS.rbacOrgPolicyGet, async (request, { caller: project }) => {
    return ok(request, unwrap(await orgPolicy(ctx, project, request.params.organization_id)));
  });
  route(ENDPOINTS.rbacOrgPolicySet, async (request, { caller: project, parse }) => {
    const { org_policy } = parse();
    const { organization_id } = request.params;
    return ok(request, unwrap(await setOrgPolicy(ctx, project, organization_id, org_policy.roles)));
  });
  route(ENDPOINTS.rbacRoleSet, async (request, { caller: project, parse }) => {
    const body = parse();
    const policy = await setRole(ctx, project, request.params.role_id, body);
    return ok(request, withScopes(unwrap(policy)));
  });
  route(ENDPOINTS.rbacRoleDelete, async (request, { caller: project }) => {
    const policy = await deleteRole(ctx, project, request.params.role_id);
    return ok(request, withScopes(unwrap(policy)));
  });
  route(ENDPOINTS.rbacResourceSet, async (request, { caller: project, parse }) => {
    const body = parse();
    const policy = await setResource(ctx, project, request.params.resource_id, body);
    return ok(request, withScopes(unwrap(policy)));
  });
  route(ENDPOINTS.rbacResourceDelete, async (request, { caller: project }) => {
    const policy = await deleteResource(ctx, project, request.params.resource_id);
    return ok(request, withScopes(unwrap(policy)));
  });
}
