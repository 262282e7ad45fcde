/** The captcha settings in the management API: `GET`/`PUT /v1/b2b/captcha`, by secret key. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { router } from '../../http/route.js';
import { captchaSettings, setCaptchaSettings } from './service.js';

/** Registers the captcha settings routes. */
export function registerCaptcha(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.getCaptcha, async (request, { caller: project }) => {
    return ok(request, { captcha: await captchaSettings(ctx, project) });
  });

  route(ENDPOINTS.setCaptcha, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, { captcha: unwrap(await setCaptchaSettings(ctx, project, body)) });
  });
}
