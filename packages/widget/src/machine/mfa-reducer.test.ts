import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { TEST_BOOTSTRAP, fullSession, mfaPending, organization } from '@gatehouse/testing';
import { reduce, type WidgetEvent } from './reducer.js';
import { initialState, type WidgetState } from './state.js';

const config = resolveConfig({ products: ['emailMagicLinks'], authFlowType: 'discovery' });

function run(state: WidgetState, ...events: WidgetEvent[]): WidgetState {
  return events.reduce((s, e) => reduce(s, e, config), state);
}

/** The state after a primary authentication that needs MFA for Ada at Acme. */
function pending(result = mfaPending()): WidgetState {
  const start = initialState({
    config,
    bootstrap: TEST_BOOTSTRAP,
    hasSession: false,
    urlToken: null,
  });
  return run(start, { type: 'PRIMARY_AUTH_SUCCEEDED', result, now: 0 });
}

const enrollment = {
  qrCode: 'data:image/png;base64,AA',
  secret: 'ABCD',
  recoveryCodes: ['a', 'b'],
};

describe('MFA transitions', () => {
  it('enrolls the method chosen on the selection', () => {
    const state = pending();
    expect(state.screen).toBe('MFAEnrollmentSelection');
    expect(run(state, { type: 'MFA_METHOD_CHOSEN', method: 'totp' }).screen).toBe(
      'TOTPEnrollmentQRCode',
    );
    expect(run(state, { type: 'MFA_METHOD_CHOSEN', method: 'sms_otp' }).screen).toBe(
      'SMSOTPEnrollment',
    );
  });

  it('moves between QR and manual entry, remembering the display method', () => {
    const manual = run(pending(), {
      type: 'MFA_SCREEN_REQUESTED',
      screen: 'TOTPEnrollmentManual',
    });
    expect(manual.screen).toBe('TOTPEnrollmentManual');
    expect(manual.mfa.totp.displayMethod).toBe('manual');
    const qr = run(manual, { type: 'MFA_SCREEN_REQUESTED', screen: 'TOTPEnrollmentQRCode' });
    expect(qr.mfa.totp.displayMethod).toBe('qr');
  });

  it('tracks an SMS send: busy, then the code screen with a two-minute expiry', () => {
    const sending = run(pending(), { type: 'SMS_SEND_STARTED' });
    expect(sending.mfa.smsOtp.isSending).toBe(true);
    const sent = run(sending, {
      type: 'SMS_SENT',
      codeExpiration: 120_000,
      destination: '+1 201 555 0123',
      enrolledNumber: { countryCode: 'US', phoneNumber: '+12015550123' },
    });
    expect(sent.screen).toBe('SMSOTPEntry');
    expect(sent.mfa.smsOtp).toEqual({
      isSending: false,
      sendError: null,
      codeExpiration: 120_000,
      formattedDestination: '+1 201 555 0123',
      enrolledNumber: { countryCode: 'US', phoneNumber: '+12015550123' },
    });
  });

  it('keeps the error of a failed send, with an expiry already past when none was set', () => {
    const failed = run(
      pending(),
      { type: 'SMS_SEND_STARTED' },
      { type: 'SMS_SEND_FAILED', message: 'No', now: 7 },
    );
    expect(failed.mfa.smsOtp).toMatchObject({
      isSending: false,
      sendError: 'No',
      codeExpiration: 7,
    });
    const sent = run(pending(), {
      type: 'SMS_SENT',
      codeExpiration: 500,
      destination: null,
      enrolledNumber: null,
    });
    const again = run(sent, { type: 'SMS_SEND_FAILED', message: 'No', now: 9 });
    expect(again.mfa.smsOtp.codeExpiration).toBe(500);
  });

  it('accepts a TOTP registration only for the member and organization of this MFA', () => {
    const creating = run(pending(), { type: 'TOTP_CREATE_STARTED' });
    expect(creating.mfa.totp.isCreating).toBe(true);
    const other = run(creating, {
      type: 'TOTP_CREATED',
      memberId: 'member-test-other',
      organizationId: organization().organization_id,
      enrollment,
    });
    expect(other.mfa.totp).toMatchObject({ isCreating: false, enrollment: null });
    const created = run(creating, {
      type: 'TOTP_CREATED',
      memberId: 'member-test-ada',
      organizationId: organization().organization_id,
      enrollment,
    });
    expect(created.mfa.totp.enrollment).toEqual(enrollment);
    const failed = run(creating, { type: 'TOTP_CREATE_FAILED', message: 'No' });
    expect(failed.mfa.totp).toMatchObject({ isCreating: false, error: 'No' });
  });

  it('shows the backup codes after an enrollment and leaves MFA on Done', () => {
    const result = fullSession();
    const saving = run(pending(), { type: 'MFA_SUCCEEDED', result, saveRecoveryCodes: true });
    expect(saving.screen).toBe('RecoveryCodeSave');
    expect(saving.mfa.completedResult).toBe(result);
    const done = run(saving, { type: 'RECOVERY_CODES_SAVED' });
    expect(done.screen).toBe('LoggedIn');
    expect(done.mfa.primaryInfo).toBeNull();
  });

  it('clears MFA and goes to the post-auth screen on success', () => {
    const done = run(pending(), {
      type: 'MFA_SUCCEEDED',
      result: fullSession(),
      saveRecoveryCodes: false,
    });
    expect(done.screen).toBe('LoggedIn');
    expect(done.mfa.primaryInfo).toBeNull();

    const start = initialState({
      config,
      bootstrap: TEST_BOOTSTRAP,
      hasSession: false,
      urlToken: null,
    });
    const reset = run(start, {
      type: 'PRIMARY_AUTH_SUCCEEDED',
      result: mfaPending(),
      now: 0,
      fromResetToken: true,
    });
    expect(
      run(reset, { type: 'MFA_SUCCEEDED', result: fullSession(), saveRecoveryCodes: false }).screen,
    ).toBe('PasswordResetForm');
  });
});
