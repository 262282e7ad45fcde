/** SMS one-time codes as a second factor (§7.7): sending to a member's phone and checking the code. */
import type { AuthenticationFactor, MfaEnrollmentChange } from '@gatehouse/protocol';
import { isoAt, type Context } from '../../context.js';
import { factorPassed, reserveFactorAttempt } from '../../auth/factor-lockout.js';
import { phoneNumberTaken } from '../../tenancy/members/store.js';
import { fail, type Failure } from '../../result.js';
import type { FullSession } from '../../auth/complete.js';
import { allowsMfaMethod, hasSecondFactor } from '../../auth/mfa-policy.js';
import { completePassedFactor } from '../../auth/passed-factor.js';
import { mayRegisterFactor, registrationRefused, type MfaCaller } from '../../auth/secondary.js';
import { issueSmsCode } from '../../auth/sms-codes.js';
import { transaction } from '../../store/transaction.js';
import { OTP_MAX_ATTEMPTS, otpCodeMatches } from '../../auth/otp-code.js';
import { countAttempt, newestUnusedCode, setUnverifiedPhone, useCode } from './store.js';
import { normalizePhoneNumber } from './phone.js';
import { invalidPhoneNumber } from '../../tenancy/members/errors.js';
import { duplicatePhoneNumber, noPhoneNumber, otpCodeNotFound, wrongSmsCode } from './errors.js';

const NOT_ALLOWED = 'This organization does not allow SMS codes as a second factor.';

/** The factor a passed SMS code proves. */
export function smsFactor(phone: string, now: number): AuthenticationFactor {
  return {
    type: 'otp',
    delivery_method: 'sms',
    last_authenticated_at: isoAt(now),
    sequence_order: 'SECONDARY',
    phone_number_factor: { phone_id: '', phone_number: phone },
  };
}

/**
 * Decides where a send goes: the given number (E.164-normalized, not another member's), else the
 * member's number on file. Checked before the rate limits are counted, so a refused request
 * costs the member nothing.
 */
export async function smsDestination(
  ctx: Context,
  caller: MfaCaller,
  requested: string | undefined,
): Promise<{ phone: string } | Failure> {
  const { member } = caller;
  if (!allowsMfaMethod(caller.organization, 'sms_otp')) {
    return fail('mfa_method_not_allowed', NOT_ALLOWED);
  }
  if (requested === undefined || requested.trim() === '') {
    if (member.mfa_phone_number === '') {
      return noPhoneNumber();
    }
    return { phone: member.mfa_phone_number };
  }
  const parsed = await normalizePhoneNumber(requested);
  if (!parsed) return invalidPhoneNumber();
  const phone = parsed.e164;
  if (phone === member.mfa_phone_number) return { phone };
  if (!mayRegisterFactor(caller, hasSecondFactor(member))) return registrationRefused();
  if (await phoneNumberTaken(ctx.db, member, phone)) {
    return duplicatePhoneNumber();
  }
  return { phone };
}

/**
 * Texts a new code to `phone` (from {@link smsDestination}). A number new to the member is stored
 * on it unverified; the code's success verifies it.
 */
export async function sendSmsCode(
  ctx: Context,
  caller: MfaCaller,
  phone: string,
  locale?: string,
): Promise<void> {
  const { member } = caller;
  await transaction(ctx.db, async (trx) => {
    if (phone !== member.mfa_phone_number) {
      await setUnverifiedPhone(trx, member.member_id, phone, ctx.now());
    }
    await issueSmsCode(ctx, trx, caller.project, member.member_id, phone, { locale });
  });
}

/** Input of {@link authenticateSmsCode}. */
export interface SmsAuthenticateInput {
  code: string;
  set_mfa_enrollment?: MfaEnrollmentChange | undefined;
  /** Makes SMS the member's default second factor (the management API's call takes it). */
  set_default_mfa?: boolean | undefined;
  session_duration_minutes?: number | undefined;
}

/**
 * Checks the member's newest code and grants result F. Every attempt counts against the code
 * (void after five) before it is compared, and a wrong code answers 401; no live code answers 404
 * `otp_code_not_found`. Wrong codes in a row, across codes, lock SMS for the member (403
 * `member_locked`, see factor-lockout). Success verifies the number the code was sent to and
 * applies `set_mfa_enrollment` and `set_default_mfa`.
 */
export async function authenticateSmsCode(
  ctx: Context,
  caller: MfaCaller,
  input: SmsAuthenticateInput,
  defaultDurationMinutes: number,
): Promise<FullSession | Failure> {
  if (!allowsMfaMethod(caller.organization, 'sms_otp')) {
    return fail('mfa_method_not_allowed', NOT_ALLOWED);
  }
  const memberId = caller.member.member_id;
  // Not allOrNothing: a wrong code must still commit its counted attempts and a voided code.
  return transaction(ctx.db, async (trx) => {
    const now = ctx.now();
    const row = await newestUnusedCode(trx, memberId);
    const notFound = otpCodeNotFound();
    if (!row || row.expires_at <= isoAt(now) || row.attempts >= OTP_MAX_ATTEMPTS) return notFound;
    const locked = await reserveFactorAttempt(ctx, trx, caller.project.id, memberId, 'sms_otp');
    if (locked) return locked;
    // The attempt is counted by one conditional update before the code is compared: concurrent
    // guesses each take one of the code's attempts, and none is compared past the cap.
    const attempts = await countAttempt(trx, row.id, OTP_MAX_ATTEMPTS);
    if (attempts === null) return notFound;
    if (!otpCodeMatches(input.code, row.code_hash, ctx.otpKey)) {
      // The last attempt voids the code.
      if (attempts >= OTP_MAX_ATTEMPTS) await useCode(trx, row.id, now);
      return wrongSmsCode();
    }
    // Single use: only one concurrent redemption flips used_at.
    if (!(await useCode(trx, row.id, now))) return notFound;
    await factorPassed(trx, memberId, 'sms_otp');
    return completePassedFactor(
      ctx,
      trx,
      caller,
      {
        factor: smsFactor(row.phone_number, now),
        memberColumns: {
          mfa_phone_number: row.phone_number,
          mfa_phone_verified: 1,
          ...(input.set_default_mfa ? { default_mfa_method: 'sms_otp' } : {}),
        },
        setMfaEnrollment: input.set_mfa_enrollment,
        durationMinutes: input.session_duration_minutes,
      },
      defaultDurationMinutes,
      now,
    );
  });
}
