/** Which e-mail domains an organization may list for e-mail JIT: never a public mail provider's. */
import type { AllowedOAuthTenants } from '@gatehouse/protocol';
import { fail, type Failure } from '../../result.js';

/**
 * Mail domains anyone can get an address at. Listing one for JIT would let every stranger with a
 * free account join the organization, so they are refused everywhere, whoever asks.
 */
export const PUBLIC_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'aol.com',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.co.uk',
  'hotmail.com',
  'hotmail.fr',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'rocketmail.com',
  'tutanota.com',
  'web.de',
  'yahoo.co.uk',
  'yahoo.com',
  'yahoo.fr',
  'yandex.com',
  'yandex.ru',
  'ymail.com',
  'zoho.com',
]);

/**
 * Whether a domain is a public mail provider's (case-insensitive).
 *
 * @example
 * isPublicEmailDomain('GMail.com'); // true
 */
export function isPublicEmailDomain(domain: string): boolean {
  return PUBLIC_EMAIL_DOMAINS.has(domain.trim().toLowerCase());
}

/**
 * Refuses a JIT domain list that names a public mail provider: 400 `invalid_email_domain`, or
 * null when the list is acceptable.
 *
 * @example
 * const refused = refusePublicDomains(input.email_allowed_domains ?? []);
 * if (refused) return refused;
 */
export function refusePublicDomains(domains: readonly string[]): Failure | null {
  const publicOne = domains.find(isPublicEmailDomain);
  if (publicOne === undefined) return null;
  return fail(
    'invalid_email_domain',
    `${publicOne.trim().toLowerCase()} is a public e-mail provider: anyone can have an address there, so it cannot be an allowed domain for joining by e-mail.`,
  );
}

/**
 * Refuses the JIT domains of an organization created through discovery: the creator proved one
 * address, so the list may name only that address's domain (and not a public provider's). Other
 * domains need the management API. Null when the list is acceptable.
 *
 * @example
 * const refused = refuseDiscoveryDomains(identity.email, input.email_allowed_domains);
 * if (refused) return refused;
 */
export function refuseDiscoveryDomains(
  creatorEmail: string,
  domains: readonly string[] | undefined,
): Failure | null {
  if (!domains || domains.length === 0) return null;
  const publicRefusal = refusePublicDomains(domains);
  if (publicRefusal) return publicRefusal;
  const own = creatorEmail.slice(creatorEmail.lastIndexOf('@') + 1).toLowerCase();
  const foreign = domains.find((domain) => domain.toLowerCase() !== own);
  if (foreign === undefined) return null;
  return fail(
    'invalid_email_domain',
    `An organization created here may allow only ${own}, the domain of your own verified address, for joining by e-mail; "${foreign}" must be added by the organization's administrator through the management API.`,
  );
}

/**
 * Refuses JIT domains that a member adds to their organization through their session: as at
 * creation from discovery, only the domain of the member's own verified address, or a domain the
 * organization verified by DNS (`claimed`, docs/protocol.md §7.12), and never a public
 * provider's. Domains already listed may stay or go; the management API may add any. Null when
 * the change is acceptable.
 *
 * @example
 * const refused = refuseMemberDomains(member, org.email_allowed_domains, patch.email_allowed_domains, org.claimed_email_domains);
 */
export function refuseMemberDomains(
  member: { email_address: string; email_address_verified: boolean },
  current: readonly string[],
  next: readonly string[],
  claimed: readonly string[] = [],
): Failure | null {
  const publicRefusal = refusePublicDomains(next);
  if (publicRefusal) return publicRefusal;
  const listed = new Set([...current, ...claimed].map((domain) => domain.toLowerCase()));
  const added = next.filter((domain) => !listed.has(domain.toLowerCase()));
  if (added.length === 0) return null;
  const email = member.email_address;
  const own = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const foreign = added.find((domain) => domain.toLowerCase() !== own);
  if (foreign === undefined && member.email_address_verified) return null;
  return fail(
    'invalid_email_domain',
    foreign === undefined
      ? `Verify your address before allowing ${own} for joining by e-mail.`
      : `You may allow only ${own}, the domain of your own verified address, for joining by e-mail; "${foreign.toLowerCase()}" must be verified by DNS first (Domains) or added through the management API.`,
  );
}

/**
 * Refuses provider tenants that a member adds through their session, by the same rule as e-mail
 * domains: a Google Workspace domain only if it is the domain of their own verified address, and
 * a Microsoft tenant only if it is the tenant of a Microsoft account linked to them (`ownTenants`:
 * a tenant id typed in proves nothing about the caller); the management API may add any. Tenants
 * already listed may stay or go. Null when the change is acceptable.
 *
 * @example
 * const refused = refuseMemberTenants(member, org.allowed_oauth_tenants ?? {}, patch.allowed_oauth_tenants);
 */
export function refuseMemberTenants(
  member: { email_address: string; email_address_verified: boolean },
  current: AllowedOAuthTenants,
  next: AllowedOAuthTenants,
  ownTenants: readonly string[] = [],
): Failure | null {
  const google = next.google && refuseMemberDomains(member, current.google ?? [], next.google);
  if (google) return google;
  const allowed = new Set(
    [...(current.microsoft ?? []), ...ownTenants].map((tenant) => tenant.toLowerCase()),
  );
  const added = (next.microsoft ?? []).find((tenant) => !allowed.has(tenant.toLowerCase()));
  if (added === undefined) return null;
  return fail(
    'invalid_request',
    `You may allow only the Microsoft tenant of your own Microsoft account; ${added} must be allowed by the organization's administrator through the management API.`,
  );
}
