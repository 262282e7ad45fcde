/** The MFA effects: SMS codes, authenticator apps and backup codes (docs/widget.md §4 "SMS", "TOTP"). */
import { SMS_CODE_SECONDS, type FullSessionResult } from '@gatehouse/protocol';
import { EVENT_TYPES, invokeCallback } from './callbacks.js';
import { reportFailure, reportSuccess, type EffectContext } from './context.js';
import { describeError } from './errors.js';
import { backupCodeErrorMessage, passcodeErrorMessage, phoneErrorMessage } from './mfa-errors.js';
import type { MfaPrimaryInfo } from './state.js';

/** A phone number the member entered, parsed and formatted by the phone input. */
export interface EnteredPhoneNumber {
  /** ISO 3166 region of the chosen country, like `US`. */
  countryCode: string;
  /** E.164, as the server takes it. */
  e164: string;
  /** How the widget shows it back. */
  display: string;
}

/** Who MFA is for, unless a submission is already under way or MFA is over. */
function readyPrimary(ctx: EffectContext): MfaPrimaryInfo | null {
  const state = ctx.getState();
  if (state.form.isSubmitting) return null;
  return state.mfa.primaryInfo;
}

/**
 * Ends MFA with its session. The host hears of it now, unless backup codes are to be saved first
 * or the new session is only the way to set a new password.
 */
function succeed(ctx: EffectContext, result: FullSessionResult, saveRecoveryCodes: boolean) {
  const postAuthScreen = ctx.getState().mfa.primaryInfo?.postAuthScreen ?? 'LoggedIn';
  ctx.dispatch({ type: 'MFA_SUCCEEDED', result, saveRecoveryCodes });
  if (!saveRecoveryCodes && postAuthScreen === 'LoggedIn') {
    invokeCallback(ctx.callbacks, 'onSuccess', result);
  }
}

/**
 * Sends an SMS code: to a number being enrolled, or (without one) to the member's verified phone,
 * or again to the number being enrolled when the member asks for a new code.
 */
export async function sendSmsCode(ctx: EffectContext, phone?: EnteredPhoneNumber): Promise<void> {
  const { mfa } = ctx.getState();
  const primary = mfa.primaryInfo;
  if (!primary || mfa.smsOtp.isSending) return;
  const number = phone?.e164 ?? (mfa.isEnrolling ? mfa.smsOtp.enrolledNumber?.phoneNumber : null);
  ctx.dispatch({ type: 'SMS_SEND_STARTED' });
  try {
    const result = await ctx.client.otps.sms.send({
      organization_id: primary.organizationId,
      member_id: primary.memberId,
      ...(number ? { mfa_phone_number: number } : {}),
      locale: ctx.config.locale,
    });
    reportSuccess(ctx, EVENT_TYPES.smsOtpSend, result);
    ctx.dispatch({
      type: 'SMS_SENT',
      codeExpiration: ctx.env.now() + SMS_CODE_SECONDS * 1000,
      destination: phone?.display ?? null,
      enrolledNumber: phone ? { countryCode: phone.countryCode, phoneNumber: phone.e164 } : null,
    });
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({
      type: 'SMS_SEND_FAILED',
      message: phoneErrorMessage(error, ctx.format),
      now: ctx.env.now(),
    });
    // A number being entered shows the error under it; a send from the code screen toasts it.
    if (!phone) ctx.env.toastError(describeError(error, ctx.format).message);
  }
}

/** Entering SMSOTPEntry sends a code, unless one is still valid or one is on its way. */
export async function sendSmsCodeIfNonePending(ctx: EffectContext): Promise<void> {
  const expiration = ctx.getState().mfa.smsOtp.codeExpiration;
  if (expiration !== null && expiration > ctx.env.now()) return;
  await sendSmsCode(ctx);
}

/** Checks an SMS code; enrolling, it also verifies the number. */
export async function authenticateSms(ctx: EffectContext, code: string): Promise<void> {
  const primary = readyPrimary(ctx);
  if (!primary) return;
  const enrolling = ctx.getState().mfa.isEnrolling;
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  try {
    const result = await ctx.client.otps.sms.authenticate({
      organization_id: primary.organizationId,
      member_id: primary.memberId,
      code,
      session_duration_minutes: ctx.config.sessionDurationMinutes,
      ...(enrolling ? { set_mfa_enrollment: 'enroll' as const } : {}),
    });
    reportSuccess(ctx, EVENT_TYPES.smsOtpAuthenticate, result);
    succeed(ctx, result, false);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FORM_FAILED', message: passcodeErrorMessage(error, ctx.format) });
  }
}

/** Creates the authenticator app registration, once: a creation under way or done is kept. */
export async function createTotp(ctx: EffectContext): Promise<void> {
  const { mfa } = ctx.getState();
  const primary = mfa.primaryInfo;
  if (!primary || mfa.totp.isCreating || mfa.totp.enrollment) return;
  ctx.dispatch({ type: 'TOTP_CREATE_STARTED' });
  try {
    const result = await ctx.client.totp.create({
      organization_id: primary.organizationId,
      member_id: primary.memberId,
    });
    reportSuccess(ctx, EVENT_TYPES.totpCreate, result);
    ctx.dispatch({
      type: 'TOTP_CREATED',
      memberId: primary.memberId,
      organizationId: primary.organizationId,
      enrollment: {
        qrCode: result.qr_code,
        secret: result.secret,
        recoveryCodes: result.recovery_codes,
      },
    });
  } catch (error) {
    reportFailure(ctx, error);
    const { message } = describeError(error, ctx.format);
    ctx.dispatch({ type: 'TOTP_CREATE_FAILED', message });
    ctx.env.toastError(message);
  }
}

/** Checks an authenticator app code; the first one of an enrollment completes it. */
export async function authenticateTotp(ctx: EffectContext, code: string): Promise<void> {
  const primary = readyPrimary(ctx);
  if (!primary) return;
  const { isEnrolling, totp } = ctx.getState().mfa;
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  try {
    const result = await ctx.client.totp.authenticate({
      organization_id: primary.organizationId,
      member_id: primary.memberId,
      code,
      session_duration_minutes: ctx.config.sessionDurationMinutes,
      ...(isEnrolling ? { set_mfa_enrollment: 'enroll' as const } : {}),
    });
    reportSuccess(ctx, EVENT_TYPES.totpAuthenticate, result);
    // The backup codes of a new registration are shown once, now.
    succeed(ctx, result, isEnrolling && totp.enrollment !== null);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FORM_FAILED', message: passcodeErrorMessage(error, ctx.format) });
  }
}

/** Signs in with a backup code instead of the authenticator app. */
export async function recoverWithCode(ctx: EffectContext, recoveryCode: string): Promise<void> {
  const primary = readyPrimary(ctx);
  if (!primary) return;
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  try {
    const result = await ctx.client.recoveryCodes.recover({
      organization_id: primary.organizationId,
      member_id: primary.memberId,
      recovery_code: recoveryCode,
      session_duration_minutes: ctx.config.sessionDurationMinutes,
    });
    reportSuccess(ctx, EVENT_TYPES.recoveryCodesRecover, result);
    succeed(ctx, result, false);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FORM_FAILED', message: backupCodeErrorMessage(error, ctx.format) });
  }
}

/** 'Done' on RecoveryCodeSave: on to the screen after MFA, and the host hears of the session. */
export function finishRecoveryCodes(ctx: EffectContext): void {
  const { completedResult, primaryInfo } = ctx.getState().mfa;
  const postAuthScreen = primaryInfo?.postAuthScreen ?? 'LoggedIn';
  ctx.dispatch({ type: 'RECOVERY_CODES_SAVED' });
  if (completedResult && postAuthScreen === 'LoggedIn') {
    invokeCallback(ctx.callbacks, 'onSuccess', completedResult);
  }
}

/** The backup codes of the enrollment, one per line. */
function recoveryCodesText(ctx: EffectContext): string {
  const codes = ctx.getState().mfa.totp.enrollment?.recoveryCodes ?? [];
  return codes.map((code) => `${code}\n`).join('');
}

/** 'Download file': the codes as `{organization name}-backup-codes.txt`. */
export function downloadRecoveryCodes(ctx: EffectContext): void {
  const organizationName = ctx.getState().mfa.primaryInfo?.organizationName;
  const fileName = organizationName
    ? ctx.format('recoverySave.fileName', { organizationName })
    : ctx.format('recoverySave.defaultFileName');
  ctx.env.downloadText(fileName, recoveryCodesText(ctx));
}

/** Copies text, saying whether it worked with a toast. */
async function copy(ctx: EffectContext, text: string, copied: string, failed: string) {
  try {
    await ctx.env.copyText(text);
    ctx.env.toastSuccess(copied);
  } catch {
    // Clipboard access is refused outside secure contexts or without a user gesture.
    ctx.env.toastError(failed);
  }
}

/** 'Copy all' on RecoveryCodeSave. */
export async function copyRecoveryCodes(ctx: EffectContext): Promise<void> {
  await copy(
    ctx,
    recoveryCodesText(ctx),
    ctx.format('recoverySave.copied'),
    ctx.format('recoverySave.copyFailed'),
  );
}

/** A click on the secret of TOTPEnrollmentManual copies it, without the spaces shown. */
export async function copyTotpSecret(ctx: EffectContext): Promise<void> {
  const secret = ctx.getState().mfa.totp.enrollment?.secret ?? '';
  await copy(ctx, secret, ctx.format('totpManual.copied'), ctx.format('totpManual.copyFailed'));
}
