/**
 * Which proven factors count where (§9): primary factors prove a person and travel between
 * organizations; a second factor proves one member's phone or app and counts only for that member,
 * in that member's organization.
 */
import type { AuthenticationFactor, Member } from '@gatehouse/protocol';
import type { Db } from '../context.js';

/** Whether a factor is a second factor (SMS code, authenticator app, recovery code). */
export function isSecondFactor(factor: AuthenticationFactor): boolean {
  return factor.sequence_order === 'SECONDARY';
}

/**
 * Whether a factor proven in one organization (or in none, by discovery) vouches for the person
 * in another one (docs/security.md, "Factors across organizations"). Only proof of the address
 * itself travels: an e-mail link, or a password set from one; and, when the identity still holds
 * the provider's claims (`federated`, a discovery IST), an OAuth sign-in, which then enters only
 * where the federated trust rules let it (auth/federated/trust.ts). An SSO sign-in is an
 * assertion of a connection one organization's admins run; a typed password is one membership's
 * secret; a session's OAuth factor has lost the claims that decide trust (it counts only for a
 * member with the same account linked, `carriedTo` in products/discovery/identity.ts): none of
 * them counts in another organization, whose own sign-in the person must pass there.
 *
 * @example
 * crossesOrganizations(emailFactor(email, '', now), false); // true
 */
export function crossesOrganizations(factor: AuthenticationFactor, federated: boolean): boolean {
  if (isSecondFactor(factor)) return false;
  switch (factor.type) {
    case 'magic_link':
      return true;
    case 'password':
      return factor.delivery_method === 'email';
    case 'oauth':
      return federated;
    default:
      return false;
  }
}

/** The id inside a factor's kind object, e.g. `authenticator_app_factor.totp_id`. */
function kindField(factor: AuthenticationFactor, kind: string, field: string): string | null {
  const value = (factor[kind] as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Whether a passed second factor is the member's own: the member's TOTP registration, the
 * member's verified phone, or a recovery code issued to the member. A factor passed by another
 * member (another organization's membership of the same address) never is.
 */
async function isOwnSecondFactor(
  db: Db,
  member: Member,
  factor: AuthenticationFactor,
): Promise<boolean> {
  switch (factor.type) {
    case 'totp':
      return (
        member.totp_registration_id !== '' &&
        kindField(factor, 'authenticator_app_factor', 'totp_id') === member.totp_registration_id
      );
    case 'otp':
      return (
        member.mfa_phone_number_verified &&
        member.mfa_phone_number !== '' &&
        kindField(factor, 'phone_number_factor', 'phone_number') === member.mfa_phone_number
      );
    case 'recovery_code': {
      const codeId = kindField(factor, 'recovery_code_factor', 'totp_recovery_code_id');
      if (codeId === null) return false;
      const row = await db
        .selectFrom('recovery_codes')
        .select('id')
        .where('id', '=', codeId)
        .where('member_id', '=', member.member_id)
        .executeTakeFirst();
      return row !== undefined;
    }
    default:
      return false;
  }
}

/**
 * The factors that hold for this member: every primary factor, and only the member's own second
 * factors. What a session of the member records, and what decides whether MFA remains.
 *
 * @example
 * const factors = await factorsFor(db, member, [...ist.factors, totpFactor(id, now)]);
 */
export async function factorsFor(
  db: Db,
  member: Member,
  factors: AuthenticationFactor[],
): Promise<AuthenticationFactor[]> {
  const kept: AuthenticationFactor[] = [];
  for (const factor of factors) {
    if (!isSecondFactor(factor) || (await isOwnSecondFactor(db, member, factor))) kept.push(factor);
  }
  return kept;
}
