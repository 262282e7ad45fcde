import { describe, expect, it } from 'vitest';
import { canSwitchTo, formatCountdown, groupSecret } from './mfa-selectors.js';
import { EMPTY_MFA_STATE, type MfaState } from './state.js';

function mfa(overrides: Partial<MfaState> = {}, supported: ('sms_otp' | 'totp')[] = []): MfaState {
  return {
    ...EMPTY_MFA_STATE,
    primaryInfo: {
      memberId: 'm',
      organizationId: 'o',
      organizationName: 'Acme',
      memberPhoneNumber: null,
      enrolledMfaMethods: ['sms_otp', 'totp'],
      organizationMfaOptionsSupported: supported,
      postAuthScreen: 'LoggedIn',
    },
    ...overrides,
  };
}

describe('canSwitchTo', () => {
  it('offers another enrolled, supported method, never while enrolling', () => {
    expect(canSwitchTo(mfa(), 'totp')).toBe(true);
    expect(canSwitchTo(mfa({}, ['sms_otp']), 'totp')).toBe(false);
    expect(canSwitchTo(mfa({ isEnrolling: true }), 'totp')).toBe(false);
    expect(canSwitchTo(EMPTY_MFA_STATE, 'totp')).toBe(false);
  });
});

describe('groupSecret', () => {
  it('lowercases the secret in groups of four', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPAB')).toBe('jbsw y3dp ehpk 3pxp ab');
    expect(groupSecret('')).toBe('');
  });
});

describe('formatCountdown', () => {
  it('shows m:ss, rounding up, and 0:00 at or past expiry', () => {
    expect(formatCountdown(120_000)).toBe('2:00');
    expect(formatCountdown(119_001)).toBe('2:00');
    expect(formatCountdown(61_000)).toBe('1:01');
    expect(formatCountdown(9_000)).toBe('0:09');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});
