/** GET /sdk/v1/projects/bootstrap/:public_token: anonymous, by the token in the path. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { ok } from '../../http/reply.js';
import { projectPolicy } from '../../tenancy/rbac/service.js';
import { bootstrapCaptcha } from '../captcha/service.js';
import { bootstrapData } from './service.js';

/** Registers the bootstrap route. */
export function registerBootstrap(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.bootstrap, async (request, { caller: { project } }) => {
    const [policy, captcha] = await Promise.all([
      projectPolicy(ctx.db, project.id),
      bootstrapCaptcha(ctx, project),
    ]);
    return ok(request, bootstrapData(project, ctx.config.emailDomain, policy, captcha));
  });
}
