import { describe, expect, it } from 'vitest';
import { member, mfaPending, organization, fullSession } from '@gatehouse/testing';
import { enrollmentOptions } from './mfa-selectors.js';
import {
  isMfaMethodSupported,
  orderMfaMethods,
  routeAfterPrimaryAuth,
  type MfaPreferences,
} from './routing.js';

const none: MfaPreferences = { mfaProductInclude: [], mfaProductOrder: [] };

describe('routeAfterPrimaryAuth', () => {
  it('logs in with a member session, or sets a new password after a reset link', () => {
    expect(routeAfterPrimaryAuth(fullSession(), none, 0).screen).toBe('LoggedIn');
    expect(routeAfterPrimaryAuth(fullSession(), none, 0, true).screen).toBe('PasswordResetForm');
  });

  it('enters the SMS code when the server already sent it, expiring two minutes later', () => {
    const result = mfaPending(
      { mfa_phone_number: '+15555550100', mfa_phone_number_verified: true },
      organization(),
      'sms_otp',
    );
    const route = routeAfterPrimaryAuth(result, none, 1_000);
    expect(route.screen).toBe('SMSOTPEntry');
    expect(route.mfa.smsOtp.codeExpiration).toBe(1_000 + 120_000);
    expect(route.mfa.smsOtp.formattedDestination).toBe('+15555550100');
  });

  it('prefers the default method when enrolled and allowed', () => {
    const both = { mfa_phone_number_verified: true, totp_registration_id: 'member-totp-test-1' };
    expect(
      routeAfterPrimaryAuth(mfaPending({ ...both, default_mfa_method: 'totp' }), none, 0).screen,
    ).toBe('TOTPEntry');
    expect(
      routeAfterPrimaryAuth(mfaPending({ ...both, default_mfa_method: 'sms_otp' }), none, 0).screen,
    ).toBe('SMSOTPEntry');
  });

  it('falls back to the first enrolled method the organization allows', () => {
    const smsOnly = organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['sms_otp'] });
    const result = mfaPending(
      {
        mfa_phone_number_verified: true,
        totp_registration_id: 'member-totp-test-1',
        default_mfa_method: 'totp',
      },
      smsOnly,
    );
    expect(routeAfterPrimaryAuth(result, none, 0).screen).toBe('SMSOTPEntry');
  });

  it('enrolls: straight to the one available method, else the selection', () => {
    const totpOnly = organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['totp'] });
    const route = routeAfterPrimaryAuth(mfaPending({}, totpOnly), none, 0);
    expect(route.screen).toBe('TOTPEnrollmentQRCode');
    expect(route.mfa.isEnrolling).toBe(true);

    const include: MfaPreferences = { mfaProductInclude: ['sms_otp'], mfaProductOrder: [] };
    expect(routeAfterPrimaryAuth(mfaPending(), include, 0).screen).toBe('SMSOTPEnrollment');
    expect(routeAfterPrimaryAuth(mfaPending(), none, 0).screen).toBe('MFAEnrollmentSelection');
  });

  it('records what MFA needs to know', () => {
    const route = routeAfterPrimaryAuth(mfaPending({ mfa_phone_number: '+15555550100' }), none, 0);
    expect(route.mfa.primaryInfo).toEqual({
      memberId: member().member_id,
      organizationId: organization().organization_id,
      organizationName: 'Acme',
      memberPhoneNumber: '+15555550100',
      enrolledMfaMethods: [],
      organizationMfaOptionsSupported: [],
      postAuthScreen: 'LoggedIn',
    });
  });
});

describe('routeAfterPrimaryAuth after a reset login link', () => {
  it('comes back to the reset form once MFA is done', () => {
    const route = routeAfterPrimaryAuth(mfaPending(), none, 0, true);
    expect(route.mfa.primaryInfo?.postAuthScreen).toBe('PasswordResetForm');
  });
});

describe('orderMfaMethods', () => {
  it('puts configured methods first and keeps the rest in place', () => {
    expect(orderMfaMethods(['sms_otp', 'totp'], ['totp'])).toEqual(['totp', 'sms_otp']);
    expect(orderMfaMethods(['sms_otp', 'totp'], [])).toEqual(['sms_otp', 'totp']);
  });
});

describe('routeAfterPrimaryAuth: every case of spec §4', () => {
  const phone = { mfa_phone_number: '+15555550100', mfa_phone_number_verified: true };
  const totp = { totp_registration_id: 'member-totp-test-1' };
  const restricted = (...methods: ('sms_otp' | 'totp')[]) =>
    organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: methods });
  const screenFor = (...args: Parameters<typeof mfaPending>) =>
    routeAfterPrimaryAuth(mfaPending(...args), none, 0).screen;

  it('takes the code the server already texted even when TOTP is the default', () => {
    const route = routeAfterPrimaryAuth(
      mfaPending({ ...phone, ...totp, default_mfa_method: 'totp' }, organization(), 'sms_otp'),
      none,
      5,
    );
    expect(route.screen).toBe('SMSOTPEntry');
    expect(route.mfa.isEnrolling).toBe(false);
    expect(route.mfa.smsOtp.codeExpiration).toBe(120_005);
  });

  it('falls back to the member phone for the destination when the result names none', () => {
    const result = mfaPending(phone, organization(), 'sms_otp');
    const route = routeAfterPrimaryAuth(
      { ...result, mfa_required: { member_options: null, secondary_auth_initiated: 'sms_otp' } },
      none,
      0,
    );
    expect(route.mfa.smsOtp.formattedDestination).toBe('+15555550100');
  });

  it('uses the first enrolled allowed method without a usable default', () => {
    expect(screenFor({ ...phone, ...totp })).toBe('SMSOTPEntry');
    expect(screenFor({ ...totp, default_mfa_method: 'sms_otp' })).toBe('TOTPEntry');
    expect(screenFor({ ...phone, ...totp }, restricted('totp'))).toBe('TOTPEntry');
  });

  it('does not count an unverified phone as enrolled', () => {
    expect(screenFor({ mfa_phone_number: '+15555550100' }, restricted('sms_otp'))).toBe(
      'SMSOTPEnrollment',
    );
  });

  it('enrolls when no enrolled method is allowed, in what the organization supports', () => {
    const route = routeAfterPrimaryAuth(mfaPending(totp, restricted('sms_otp')), none, 0);
    expect(route.screen).toBe('SMSOTPEnrollment');
    expect(route.mfa.isEnrolling).toBe(true);
  });

  it("prefers the organization's methods over the widget's when counting what is available", () => {
    const include: MfaPreferences = { mfaProductInclude: ['totp'], mfaProductOrder: [] };
    expect(routeAfterPrimaryAuth(mfaPending({}, restricted('sms_otp')), include, 0).screen).toBe(
      'SMSOTPEnrollment',
    );
    expect(routeAfterPrimaryAuth(mfaPending(), include, 0).screen).toBe('TOTPEnrollmentQRCode');
    const both: MfaPreferences = { mfaProductInclude: ['totp', 'sms_otp'], mfaProductOrder: [] };
    expect(routeAfterPrimaryAuth(mfaPending(), both, 0).screen).toBe('MFAEnrollmentSelection');
    expect(
      routeAfterPrimaryAuth(mfaPending({}, restricted('sms_otp', 'totp')), none, 0).screen,
    ).toBe('MFAEnrollmentSelection');
  });
});

describe('enrollmentOptions', () => {
  const supported = (...m: ('sms_otp' | 'totp')[]) => ({ organizationMfaOptionsSupported: m });

  it('offers both in the spec order by default, or in the configured order', () => {
    expect(enrollmentOptions(supported(), none)).toEqual(['totp', 'sms_otp']);
    expect(
      enrollmentOptions(supported(), { mfaProductInclude: [], mfaProductOrder: ['sms_otp'] }),
    ).toEqual(['sms_otp', 'totp']);
  });

  it('filters by what the organization supports and what the widget includes', () => {
    expect(enrollmentOptions(supported('sms_otp'), none)).toEqual(['sms_otp']);
    expect(
      enrollmentOptions(supported('sms_otp', 'totp'), {
        mfaProductInclude: ['totp'],
        mfaProductOrder: [],
      }),
    ).toEqual(['totp']);
  });

  it('knows which methods an organization supports', () => {
    expect(isMfaMethodSupported(supported(), 'totp')).toBe(true);
    expect(isMfaMethodSupported(supported('sms_otp'), 'totp')).toBe(false);
  });
});
