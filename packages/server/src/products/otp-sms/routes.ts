/** The SMS code endpoints of §7.7, send and authenticate, for browsers and for host backends. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { MfaCaller } from '../../auth/secondary.js';
import { SmsDeliveryError } from '../../delivery/sms.js';
import { requireBackendMfaCaller } from '../../http/backend-caller.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { enforceRateLimits, sendsPerIpRule } from '../../http/rate-limit.js';
import type { RateRule } from '../../store/rate-limits.js';
import { ok } from '../../http/reply.js';
import { requireMfaCaller } from '../../http/mfa-caller.js';
import { smsSendRules } from '../../auth/sms-codes.js';
import { memberById } from '../../tenancy/members/store.js';
import { authenticateSmsCode, sendSmsCode, smsDestination } from './service.js';

/** Registers the SMS code routes. */
export function registerOtpSms(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.smsSend, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    await send(request, mfa, body, [sendsPerIpRule(ctx, mfa.project.id, request.ip)]);
    return ok(request, {});
  });

  /**
   * Texts a code after the send limits: those of the member and number, and `perCaller`'s (the
   * browser's per-IP budget; none for a backend, whose members all call from its address).
   */
  async function send(
    request: FastifyRequest,
    mfa: MfaCaller,
    body: { mfa_phone_number?: string | undefined; locale?: string | undefined },
    perCaller: RateRule[],
  ): Promise<void> {
    const { phone } = unwrap(await smsDestination(ctx, mfa, body.mfa_phone_number));
    await enforceRateLimits(ctx, [...perCaller, ...smsSendRules(ctx, mfa.member.member_id, phone)]);
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
  }

  route(ENDPOINTS.smsAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    return ok(
      request,
      unwrap(await authenticateSmsCode(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });

  // The management API's `otps.sms.send` and `authenticate` (secret key).
  route(ENDPOINTS.backendSmsSend, async (request, { caller: project, parse }) => {
    const body = parse();
    const mfa = await requireBackendMfaCaller(ctx, project, body, 'member');
    await send(request, mfa, body, []);
    // Read again: a new number is now on the member, unverified.
    const member = (await memberById(ctx.db, project.id, mfa.member.member_id)) ?? mfa.member;
    return ok(request, { member_id: member.member_id, member, organization: mfa.organization });
  });

  route(ENDPOINTS.backendSmsAuthenticate, async (request, { caller: project, parse }) => {
    const body = parse();
    const mfa = await requireBackendMfaCaller(ctx, project, body, 'proof');
    return ok(
      request,
      unwrap(await authenticateSmsCode(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });
}
