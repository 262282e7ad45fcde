/** Where the widget goes after a primary authentication (docs/widget.md §4 "After primary authentication"). */
import {
  MFA_METHODS,
  SMS_CODE_SECONDS,
  type AuthResult,
  type MfaMethod,
} from '@gatehouse/protocol';
import { EMPTY_MFA_STATE, type MfaPrimaryInfo, type MfaState } from './state.js';
import type { Screen } from './screens.js';

/** The MFA preferences of the widget configuration. */
export interface MfaPreferences {
  mfaProductInclude: readonly MfaMethod[];
  mfaProductOrder: readonly MfaMethod[];
}

/** The screen to show next and the MFA state to go with it. */
export interface AuthRoute {
  screen: Screen;
  mfa: MfaState;
}

const ENTRY_SCREEN: Record<MfaMethod, Screen> = { totp: 'TOTPEntry', sms_otp: 'SMSOTPEntry' };
const ENROLLMENT_SCREEN: Record<MfaMethod, Screen> = {
  totp: 'TOTPEnrollmentQRCode',
  sms_otp: 'SMSOTPEnrollment',
};

/** Methods sorted by the configured order; the ones it does not name keep their place after. */
export function orderMfaMethods(
  methods: readonly MfaMethod[],
  order: readonly MfaMethod[],
): MfaMethod[] {
  const rank = (m: MfaMethod) => {
    const i = order.indexOf(m);
    return i === -1 ? order.length + methods.indexOf(m) : i;
  };
  return [...methods].sort((a, b) => rank(a) - rank(b));
}

/** The MFA methods a member may enroll in: the organization's, else the UI's, else both. */
export function availableMfaMethods(
  primary: Pick<MfaPrimaryInfo, 'organizationMfaOptionsSupported'>,
  preferences: MfaPreferences,
): MfaMethod[] {
  if (primary.organizationMfaOptionsSupported.length > 0)
    return [...primary.organizationMfaOptionsSupported];
  if (preferences.mfaProductInclude.length > 0) return [...preferences.mfaProductInclude];
  return [...MFA_METHODS];
}

/** Whether the organization lets a method be used (no restriction: every method). */
export function isMfaMethodSupported(
  primary: Pick<MfaPrimaryInfo, 'organizationMfaOptionsSupported'>,
  method: MfaMethod,
): boolean {
  const supported = primary.organizationMfaOptionsSupported;
  return supported.length === 0 || supported.includes(method);
}

/** The screen that enrolls a method. */
export function enrollmentScreen(method: MfaMethod): Screen {
  return ENROLLMENT_SCREEN[method];
}

/** Reads the MFA facts of an MFA-pending result. */
export function mfaPrimaryInfo(result: AuthResult): MfaPrimaryInfo {
  const { member, organization } = result;
  const enrolled: MfaMethod[] = [];
  if (member.mfa_phone_number_verified) enrolled.push('sms_otp');
  if (member.totp_registration_id) enrolled.push('totp');
  return {
    memberId: member.member_id,
    organizationId: organization.organization_id,
    organizationName: organization.organization_name,
    memberPhoneNumber: member.mfa_phone_number || null,
    enrolledMfaMethods: enrolled,
    // Empty means the organization places no restriction.
    organizationMfaOptionsSupported:
      organization.mfa_methods === 'RESTRICTED' ? [...organization.allowed_mfa_methods] : [],
    postAuthScreen: 'LoggedIn',
  };
}

/**
 * Routes the result of a primary authentication: a member session logs in; otherwise MFA decides
 * between entering a code for an enrolled method and enrolling one.
 *
 * @param now - the current time in epoch milliseconds, for the SMS code expiry.
 * @param fromResetToken - the result came from a magic link that resets a password.
 */
export function routeAfterPrimaryAuth(
  result: AuthResult,
  preferences: MfaPreferences,
  now: number,
  fromResetToken = false,
): AuthRoute {
  if (result.member_session) {
    return { screen: fromResetToken ? 'PasswordResetForm' : 'LoggedIn', mfa: EMPTY_MFA_STATE };
  }

  // After MFA, a reset link's sign-in still has to set the new password.
  const primaryInfo: MfaPrimaryInfo = {
    ...mfaPrimaryInfo(result),
    postAuthScreen: fromResetToken ? 'PasswordResetForm' : 'LoggedIn',
  };
  const base: MfaState = { ...EMPTY_MFA_STATE, primaryInfo };

  if (result.mfa_required.secondary_auth_initiated === 'sms_otp') {
    const destination = result.mfa_required.member_options?.mfa_phone_number ?? null;
    return {
      screen: 'SMSOTPEntry',
      mfa: {
        ...base,
        smsOtp: {
          ...base.smsOtp,
          codeExpiration: now + SMS_CODE_SECONDS * 1000,
          formattedDestination: destination ?? primaryInfo.memberPhoneNumber,
        },
      },
    };
  }

  const usable = primaryInfo.enrolledMfaMethods.filter((m) => isMfaMethodSupported(primaryInfo, m));
  const preferred = result.member.default_mfa_method;
  const method = preferred && usable.includes(preferred) ? preferred : usable[0];
  if (method) return { screen: ENTRY_SCREEN[method], mfa: base };

  const available = availableMfaMethods(primaryInfo, preferences);
  const only = available.length === 1 ? available[0] : undefined;
  return {
    screen: only ? ENROLLMENT_SCREEN[only] : 'MFAEnrollmentSelection',
    mfa: { ...base, isEnrolling: true },
  };
}
