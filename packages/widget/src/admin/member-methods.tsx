/** How a member signs in, as their member object says: password, SSO and OAuth identities, and second factors. */
import type { Member } from '@gatehouse/protocol';
import { useAdmin } from './admin-context.js';
import type { AdminFormat, AdminMessageKey } from './admin-messages.js';

/** The member's primary ways in and their second factors, in the portal's words. */
export function memberMethods(
  member: Member,
  format: AdminFormat,
): { primary: string[]; second: string[] } {
  const primary: AdminMessageKey[] = [];
  if (member.member_password_id !== '') primary.push('members.method.password');
  if (member.sso_registrations.length > 0) primary.push('members.method.sso');
  const providers = new Set(member.oauth_registrations.map((r) => r.provider_type));
  if (providers.has('google')) primary.push('members.method.google');
  if (providers.has('microsoft')) primary.push('members.method.microsoft');
  const second: AdminMessageKey[] = [];
  // A number waiting for its first code is not a way in yet.
  if (member.mfa_phone_number !== '' && member.mfa_phone_number_verified) {
    second.push('members.method.sms');
  }
  if (member.totp_registration_id !== '') second.push('members.method.totp');
  return {
    primary: primary.length > 0 ? primary.map((k) => format(k)) : [format('members.method.email')],
    second: second.map((k) => format(k)),
  };
}

export function MemberMethods({ member }: { member: Member }) {
  const { format } = useAdmin();
  const { primary, second } = memberMethods(member, format);
  return (
    <span className="gh-text-secondary gh-admin-methods">
      {format('members.signsInWith', { methods: primary.join(', ') })}
      {' · '}
      {second.length > 0
        ? format('members.secondFactors', { methods: second.join(', ') })
        : format('members.noSecondFactor')}
    </span>
  );
}
