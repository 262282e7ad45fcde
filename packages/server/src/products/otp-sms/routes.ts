/** The SMS code endpoints of §7.7: send and authenticate. */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { SmsDeliveryError } from '../../delivery/sms.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { enforceRateLimits, sendsPerIpRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { fields } from '../../http/validate.js';
import { mfaRequest } from '../sessions/mfa-caller.js';
import { smsSendRules } from './codes.js';
import { authenticateSmsCode, sendSmsCode, smsDestination } from './service.js';

const id = fields.text.max(200);
const ist = z.string().max(200).optional();

const SendBody = z.object({
  organization_id: id,
  member_id: id,
  mfa_phone_number: z.string().max(64).optional(),
  locale: z.string().optional(),
  intermediate_session_token: ist,
});

const AuthenticateBody = z.object({
  organization_id: id,
  member_id: id,
  code: fields.text.max(32),
  set_mfa_enrollment: z.enum(['enroll', 'unenroll']).optional(),
  session_duration_minutes: fields.sessionDuration.optional(),
  intermediate_session_token: ist,
});

/** Registers the SMS code routes. */
export function registerOtpSms(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/b2b/otps/sms/send', async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, SendBody);
    const { phone } = unwrap(await smsDestination(ctx, caller, body.mfa_phone_number));
    await enforceRateLimits(ctx, [
      sendsPerIpRule(ctx, caller.project.id, request.ip),
      ...smsSendRules(ctx, caller.member.member_id, phone),
    ]);
    try {
      await sendSmsCode(ctx, caller, phone);
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

  app.post('/sdk/v1/b2b/otps/sms/authenticate', async (request) => {
    const { body, caller } = await mfaRequest(ctx, request, AuthenticateBody);
    return ok(
      request,
      unwrap(await authenticateSmsCode(ctx, caller, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
