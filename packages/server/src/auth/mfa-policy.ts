/** Which MFA methods an organization allows, a member has enrolled, and which one a login uses (§9). */
import type { Member, MfaMethod, Organization } from '@gatehouse/protocol';
import { MFA_METHODS } from '@gatehouse/protocol';

/** Whether the organization lets its members use an MFA method. */
export function allowsMfaMethod(organization: Organization, method: MfaMethod): boolean {
  return (
    organization.mfa_methods === 'ALL_ALLOWED' || organization.allowed_mfa_methods.includes(method)
  );
}

/** The methods a member can pass a second factor with: a verified phone, a verified TOTP. */
export function enrolledMfaMethods(member: Member): MfaMethod[] {
  return MFA_METHODS.filter((method) =>
    method === 'sms_otp'
      ? member.mfa_phone_number !== '' && member.mfa_phone_number_verified
      : member.totp_registration_id !== '',
  );
}

/**
 * The method a login will use, as the widget chooses it (docs/widget.md §4): the member's default
 * if enrolled and allowed, else the only enrolled and allowed method; null when there is no single
 * answer (nothing enrolled, or several and no default).
 */
export function chosenMfaMethod(organization: Organization, member: Member): MfaMethod | null {
  const usable = enrolledMfaMethods(member).filter((m) => allowsMfaMethod(organization, m));
  if (member.default_mfa_method !== '' && usable.includes(member.default_mfa_method)) {
    return member.default_mfa_method;
  }
  return usable.length === 1 ? (usable[0] ?? null) : null;
}

/** Whether the member has any second factor registered, allowed or not. */
export function hasSecondFactor(member: Member): boolean {
  return enrolledMfaMethods(member).length > 0;
}
