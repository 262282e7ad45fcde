/** The SMS code endpoints of §7.7: send and authenticate. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { route } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { SmsDeliveryError } from '../../delivery/sms.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { enforceRateLimits, sendsPerIpRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { mfaRequest } from '../../http/mfa-caller.js';
import { smsSendRules } from '../../auth/sms-codes.js';
import { authenticateSmsCode, sendSmsCode, smsDestination } from './service.js';

/** Registers the SMS code routes. */
export function registerOtpSms(app: FastifyInstance, ctx: Context): void {
  route(app, ENDPOINTS.smsSend, async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, ENDPOINTS.smsSend.body);
    const { phone } = unwrap(await smsDestination(ctx, caller, body.mfa_phone_number));
    await enforceRateLimits(ctx, [
      sendsPerIpRule(ctx, caller.project.id, request.ip),
      ...smsSendRules(ctx, caller.member.member_id, phone),
    ]);
    try {
      await sendSmsCode(ctx, caller, phone, body.locale);
    } catch (error) {
      if (!(error instanceof SmsDeliveryError)) throw error;
      // The provider's outage is not the caller's fault, and retrying later may well work:
      // a 503 that says so, never a bare 500.
      request.log.error({ err: error }, 'SMS provider failed');
      throw new ApiError(
        'sms_delivery_failed',
        'The text message could not be sent right now. Please try again in a moment.',
      );
    }
    return ok(request, {});
  });

  route(app, ENDPOINTS.smsAuthenticate, async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, ENDPOINTS.smsAuthenticate.body);
    return ok(
      request,
      unwrap(await authenticateSmsCode(ctx, caller, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
