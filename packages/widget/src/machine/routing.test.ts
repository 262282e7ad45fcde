import { describe, expect, it } from 'vitest';
import { member, mfaPending, organization, fullSession } from '../test/fixtures.js';
import { orderMfaMethods, routeAfterPrimaryAuth, type MfaPreferences } from './routing.js';

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
      memberPhoneNumber: '+15555550100',
      enrolledMfaMethods: [],
      organizationMfaOptionsSupported: [],
      postAuthScreen: 'LoggedIn',
    });
  });
});

describe('orderMfaMethods', () => {
  it('puts configured methods first and keeps the rest in place', () => {
    expect(orderMfaMethods(['sms_otp', 'totp'], ['totp'])).toEqual(['totp', 'sms_otp']);
    expect(orderMfaMethods(['sms_otp', 'totp'], [])).toEqual(['sms_otp', 'totp']);
  });
});
