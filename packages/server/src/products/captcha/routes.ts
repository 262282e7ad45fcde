/** The captcha settings in the management API: `GET`/`PUT /v1/b2b/captcha`, by secret key. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { secretCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { route } from '../../http/route.js';
import { captchaSettings, setCaptchaSettings } from './service.js';

/** Registers the captcha settings routes. */
export function registerCaptcha(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.getCaptcha, async (request) => {
    const project = await secretCaller(ctx, request);
    return ok(request, { captcha: await captchaSettings(ctx, project) });
  });

  route(app, ENDPOINTS.setCaptcha, async (request, parse) => {
    const project = await secretCaller(ctx, request);
    const body = parse();
    return ok(request, { captcha: unwrap(await setCaptchaSettings(ctx, project, body)) });
  });
}
