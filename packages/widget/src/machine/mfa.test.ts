import { describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { effectHarness } from '../test/effect-harness.js';
import { ACK, apiError, fullSession, mfaPending, organization } from '@gatehouse/testing';
import {
  authenticateSms,
  authenticateTotp,
  copyRecoveryCodes,
  copyTotpSecret,
  createTotp,
  downloadRecoveryCodes,
  finishRecoveryCodes,
  recoverWithCode,
  sendSmsCode,
  sendSmsCodeIfNonePending,
} from './mfa.js';

const config: WidgetConfig = { products: ['passwords'], authFlowType: 'organization' };
const IDS = { organization_id: 'organization-test-acme', member_id: 'member-test-ada' };
const PHONE = { countryCode: 'US', e164: '+12015550123', display: '+1 201 555 0123' };
const TOTP = {
  ...ACK,
  totp_id: 'member-totp-test-1',
  secret: 'JBSWY3DPEHPK3PXP',
  qr_code: 'data:image/png;base64,AA',
  recovery_codes: ['aaaa-bbbb-cccc', 'dddd-eeee-ffff'],
};

/** A harness right after a primary authentication that needs MFA. */
function pending(result = mfaPending(), options: Parameters<typeof effectHarness>[1] = {}) {
  const h = effectHarness(config, options);
  h.ctx.dispatch({ type: 'PRIMARY_AUTH_SUCCEEDED', result, now: h.ctx.env.now() });
  return h;
}

const enrolledTotp = () => mfaPending({ totp_registration_id: 'member-totp-test-1' });
const enrolledPhone = () =>
  mfaPending({ mfa_phone_number: '+12015550123', mfa_phone_number_verified: true });

describe('SMS', () => {
  it('sends to a number being enrolled, then asks for the code for two minutes', async () => {
    const h = pending();
    h.ctx.dispatch({ type: 'MFA_METHOD_CHOSEN', method: 'sms_otp' });
    h.client.answer('otps.sms.send', async () => ACK);
    await sendSmsCode(h.ctx, PHONE);
    expect(h.client.callsTo('otps.sms.send')).toEqual([
      { ...IDS, mfa_phone_number: '+12015550123', locale: 'en' },
    ]);
    expect(h.state().screen).toBe('SMSOTPEntry');
    expect(h.state().mfa.smsOtp).toMatchObject({
      codeExpiration: 1_000 + 120_000,
      formattedDestination: '+1 201 555 0123',
      enrolledNumber: { countryCode: 'US', phoneNumber: '+12015550123' },
    });
    expect(h.events).toEqual([{ type: 'B2B_SMS_OTP_SEND', data: ACK }]);

    // A resend while enrolling goes to the same number again.
    await sendSmsCode(h.ctx);
    expect(h.client.callsTo('otps.sms.send')[1]).toEqual({
      ...IDS,
      mfa_phone_number: '+12015550123',
      locale: 'en',
    });
  });

  it('maps phone errors to the spec messages, without a toast', async () => {
    const h = pending();
    h.client.answer('otps.sms.send', () =>
      Promise.reject(apiError('duplicate_member_phone_number', 'Taken', 400)),
    );
    await sendSmsCode(h.ctx, PHONE);
    expect(h.state().mfa.smsOtp.sendError).toBe(
      'A member with the specified phone number already exists for this organization.',
    );
    h.client.answer('otps.sms.send', () =>
      Promise.reject(apiError('invalid_phone_number', 'Bad', 400)),
    );
    await sendSmsCode(h.ctx, PHONE);
    expect(h.state().mfa.smsOtp.sendError).toBe('Invalid phone number, please try again.');
    expect(h.toasts).toEqual([]);
  });

  it('sends on entry only when no code is pending, once', async () => {
    const h = pending(enrolledPhone());
    expect(h.state().screen).toBe('SMSOTPEntry');
    h.client.answer('otps.sms.send', async () => ACK);
    await Promise.all([sendSmsCodeIfNonePending(h.ctx), sendSmsCodeIfNonePending(h.ctx)]);
    expect(h.client.callsTo('otps.sms.send')).toEqual([{ ...IDS, locale: 'en' }]);
    await sendSmsCodeIfNonePending(h.ctx);
    expect(h.client.callsTo('otps.sms.send')).toHaveLength(1);

    const initiated = pending(
      mfaPending(
        { mfa_phone_number: '+12015550123', mfa_phone_number_verified: true },
        organization(),
        'sms_otp',
      ),
    );
    await sendSmsCodeIfNonePending(initiated.ctx);
    expect(initiated.client.callsTo('otps.sms.send')).toEqual([]);
  });

  it('toasts a failed send from the code screen and marks the code expired', async () => {
    const h = pending(enrolledPhone());
    h.client.answer('otps.sms.send', () =>
      Promise.reject(apiError('too_many_requests', 'Slow down', 429)),
    );
    await sendSmsCodeIfNonePending(h.ctx);
    expect(h.toasts).toEqual([{ kind: 'error', message: 'Slow down' }]);
    expect(h.state().mfa.smsOtp.codeExpiration).toBe(1_000);
  });

  it('authenticates the code, enrolling the number during enrollment, and logs in', async () => {
    const h = pending();
    h.ctx.dispatch({ type: 'MFA_METHOD_CHOSEN', method: 'sms_otp' });
    const result = fullSession();
    h.client.answer('otps.sms.authenticate', async () => result);
    await authenticateSms(h.ctx, '123456');
    expect(h.client.callsTo('otps.sms.authenticate')).toEqual([
      { ...IDS, code: '123456', session_duration_minutes: 60, set_mfa_enrollment: 'enroll' },
    ]);
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
    expect(h.events.map((e) => e.type)).toEqual(['B2B_SMS_OTP_AUTHENTICATE']);
  });

  it('says the passcode is invalid when refused', async () => {
    const h = pending(enrolledPhone());
    h.client.answer('otps.sms.authenticate', () =>
      Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
    );
    await authenticateSms(h.ctx, '000000');
    expect(h.client.callsTo('otps.sms.authenticate')).toEqual([
      { ...IDS, code: '000000', session_duration_minutes: 60 },
    ]);
    expect(h.state().form.error).toBe('Invalid passcode, please try again.');
  });
});

describe('TOTP', () => {
  it('creates the registration once, even when asked twice', async () => {
    const h = pending();
    h.ctx.dispatch({ type: 'MFA_METHOD_CHOSEN', method: 'totp' });
    h.client.answer('totp.create', async () => TOTP);
    await Promise.all([createTotp(h.ctx), createTotp(h.ctx)]);
    await createTotp(h.ctx);
    expect(h.client.callsTo('totp.create')).toEqual([IDS]);
    expect(h.state().mfa.totp.enrollment).toEqual({
      qrCode: TOTP.qr_code,
      secret: TOTP.secret,
      recoveryCodes: TOTP.recovery_codes,
    });
    expect(h.events.map((e) => e.type)).toEqual(['B2B_TOTP_CREATE']);
  });

  it('toasts a failed creation', async () => {
    const h = pending();
    h.client.answer('totp.create', () =>
      Promise.reject(apiError('mfa_method_not_allowed', 'Not allowed', 403)),
    );
    await createTotp(h.ctx);
    expect(h.state().mfa.totp.error).toBe('Not allowed');
    expect(h.toasts).toEqual([{ kind: 'error', message: 'Not allowed' }]);
  });

  it('completes an enrollment by showing the backup codes, and reports success on Done', async () => {
    const h = pending();
    h.ctx.dispatch({ type: 'MFA_METHOD_CHOSEN', method: 'totp' });
    h.client.answer('totp.create', async () => TOTP);
    await createTotp(h.ctx);
    const result = fullSession();
    h.client.answer('totp.authenticate', async () => result);
    await authenticateTotp(h.ctx, '123456');
    expect(h.client.callsTo('totp.authenticate')).toEqual([
      { ...IDS, code: '123456', session_duration_minutes: 60, set_mfa_enrollment: 'enroll' },
    ]);
    expect(h.state().screen).toBe('RecoveryCodeSave');
    expect(h.successes).toEqual([]);
    finishRecoveryCodes(h.ctx);
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
  });

  it('logs an enrolled member straight in, and refuses a wrong code', async () => {
    const h = pending(enrolledTotp());
    h.client.answer('totp.authenticate', () =>
      Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
    );
    await authenticateTotp(h.ctx, '000000');
    expect(h.state().form.error).toBe('Invalid passcode, please try again.');
    h.client.answer('totp.authenticate', async () => fullSession());
    await authenticateTotp(h.ctx, '123456');
    expect(h.client.callsTo('totp.authenticate')[1]).toEqual({
      ...IDS,
      code: '123456',
      session_duration_minutes: 60,
    });
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toHaveLength(1);
  });
});

describe('backup codes', () => {
  it('recovers to the post-auth screen, or says the code is invalid', async () => {
    const h = pending(enrolledTotp());
    h.client.answer('recoveryCodes.recover', () =>
      Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
    );
    await recoverWithCode(h.ctx, 'aaaa-bbbb-cccc');
    expect(h.state().form.error).toBe('Invalid backup code, please try again.');
    const result = { ...fullSession(), recovery_codes_remaining: 9 };
    h.client.answer('recoveryCodes.recover', async () => result);
    await recoverWithCode(h.ctx, 'aaaa-bbbb-cccc');
    expect(h.client.callsTo('recoveryCodes.recover')[1]).toEqual({
      ...IDS,
      recovery_code: 'aaaa-bbbb-cccc',
      session_duration_minutes: 60,
    });
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
    expect(h.events.map((e) => e.type)).toEqual(['B2B_RECOVERY_CODES_RECOVER']);
  });

  it('downloads one code per line, named after the organization', async () => {
    const h = pending();
    h.client.answer('totp.create', async () => TOTP);
    await createTotp(h.ctx);
    downloadRecoveryCodes(h.ctx);
    expect(h.downloads).toEqual([
      { fileName: 'Acme-backup-codes.txt', text: 'aaaa-bbbb-cccc\ndddd-eeee-ffff\n' },
    ]);

    const unnamed = pending(mfaPending({}, organization({ organization_name: '' })));
    downloadRecoveryCodes(unnamed.ctx);
    expect(unnamed.downloads[0]?.fileName).toBe('backup-codes.txt');
  });

  it('copies the codes and the secret, with the toasts of each outcome', async () => {
    const h = pending();
    h.client.answer('totp.create', async () => TOTP);
    await createTotp(h.ctx);
    await copyRecoveryCodes(h.ctx);
    await copyTotpSecret(h.ctx);
    expect(h.clipboard).toEqual(['aaaa-bbbb-cccc\ndddd-eeee-ffff\n', 'JBSWY3DPEHPK3PXP']);
    expect(h.toasts).toEqual([
      { kind: 'success', message: 'Copied' },
      { kind: 'success', message: 'Code copied' },
    ]);

    const refused = pending(mfaPending(), { clipboardFails: true });
    await copyRecoveryCodes(refused.ctx);
    await copyTotpSecret(refused.ctx);
    expect(refused.toasts).toEqual([
      { kind: 'error', message: "Couldn't copy codes to clipboard" },
      { kind: 'error', message: "Couldn't copy code to clipboard" },
    ]);
  });
});
