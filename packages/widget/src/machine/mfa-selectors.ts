/** Pure reads of the MFA state: what the MFA screens offer and how they show it. */
import type { MfaMethod } from '@gatehouse/protocol';
import { isMfaMethodSupported, orderMfaMethods, type MfaPreferences } from './routing.js';
import type { MfaPrimaryInfo, MfaState } from './state.js';

/** The MFA methods in the order docs/widget.md lists them: the authenticator app, then text messages. */
const SPEC_ORDER: readonly MfaMethod[] = ['totp', 'sms_otp'];

/**
 * The choices of MFAEnrollmentSelection: the methods the organization supports (all when it does
 * not restrict them) that the widget includes (all when it names none), in the configured order
 * and then the rest.
 */
export function enrollmentOptions(
  primary: Pick<MfaPrimaryInfo, 'organizationMfaOptionsSupported'>,
  preferences: MfaPreferences,
): MfaMethod[] {
  const supported = primary.organizationMfaOptionsSupported;
  const included = preferences.mfaProductInclude;
  const methods = SPEC_ORDER.filter(
    (m) =>
      (supported.length === 0 || supported.includes(m)) &&
      (included.length === 0 || included.includes(m)),
  );
  return orderMfaMethods(methods, preferences.mfaProductOrder);
}

/**
 * Whether an MFA screen offers switching to another enrolled method: the member has it, is not
 * enrolling, and the organization supports it (docs/widget.md §2 SMSOTPEntry, TOTPEntry).
 */
export function canSwitchTo(mfa: MfaState, method: MfaMethod): boolean {
  const primary = mfa.primaryInfo;
  if (!primary || mfa.isEnrolling) return false;
  return primary.enrolledMfaMethods.includes(method) && isMfaMethodSupported(primary, method);
}

/**
 * An authenticator secret as TOTPEnrollmentManual shows it: lowercase, in groups of four.
 *
 * @example
 * groupSecret('JBSWY3DPEHPK3PXP'); // 'jbsw y3dp ehpk 3pxp'
 */
export function groupSecret(secret: string): string {
  return (secret.toLowerCase().match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * Milliseconds as the SMS countdown shows them, `m:ss`, rounding up so that `0:00` means expired.
 *
 * @example
 * formatCountdown(119_500); // '2:00'
 */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
