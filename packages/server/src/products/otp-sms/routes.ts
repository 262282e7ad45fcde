/** The SMS code endpoints of §7.7: send and authenticate. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { SmsDeliveryError } from '../../delivery/sms.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { enforceRateLimits, sendsPerIpRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { requireMfaCaller } from '../../http/mfa-caller.js';
import { smsSendRules } from '../../auth/sms-codes.js';
import { authenticateSmsCode, sendSmsCode, smsDestination } from './service.js';

/** Registers the SMS code routes. */
export function registerOtpSms(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.smsSend, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    const { phone } = unwrap(await smsDestination(ctx, mfa, body.mfa_phone_number));
    await enforceRateLimits(ctx, [
      sendsPerIpRule(ctx, mfa.project.id, request.ip),
      ...smsSendRules(ctx, mfa.member.member_id, phone),
    ]);
    try {
      await sendSmsCode(ctx, mfa, phone, body.locale);
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

  route(ENDPOINTS.smsAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    return ok(
      request,
      unwrap(await authenticateSmsCode(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
