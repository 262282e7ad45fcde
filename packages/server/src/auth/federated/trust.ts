/**
 * When a federated identity is trusted for an e-mail address. A provider's `email` claim is only
 * what the account's owner typed somewhere; it proves the address only where the provider
 * vouches for it:
 *
 * - **Google** vouches with `email_verified`. To join an organization by the address's domain,
 *   the account must also belong to that domain's Workspace (`hd` equal to the domain), so a
 *   personal account that merely uses a company address does not join.
 * - **Microsoft** (Entra ID) vouches with `xms_edov: true` (the tenant has verified the domain
 *   of the address). Otherwise an address counts only in an organization that has explicitly
 *   allowed the token's tenant (`tid`): any tenant's administrator can put any address on a user.
 * - **SSO connections** are the organization's own identity provider: configured by the
 *   organization, they vouch for its members' addresses. An OIDC connection still needs
 *   `email_verified: true`, or, where the claim is absent (Entra ID, ADFS and some Okta set-ups
 *   never send it), an address in one of its own organization's verified domains (proven by DNS,
 *   its `claimed_email_domains`). An explicit `email_verified: false` is always refused.
 *
 * Verified domains never make a Google or Microsoft address trusted: any tenant's administrator
 * can put any address on a user, so a domain proven in Gatehouse says nothing of who sent it.
 */
import type { AllowedOAuthTenants, Organization } from '@gatehouse/protocol';
import { domainOf, jitDecision, type JitDecision } from '../../tenancy/organizations/service.js';

/** The OAuth providers. */
export type OAuthProviderKind = 'google' | 'microsoft';

/** What a provider said of the person, as far as trust goes. Stored with ISTs, so keep it flat. */
export interface FederatedClaims {
  provider: OAuthProviderKind;
  /** The ID token's issuer (a Microsoft tenant's own issuer). */
  issuer: string;
  /** The provider's stable id of the account (`sub`). */
  subject: string;
  email: string;
  /** The provider's `email_verified`. */
  emailVerified: boolean;
  /** Google's Workspace domain (`hd`), lowercased; null for a personal account. */
  hostedDomain: string | null;
  /** Microsoft's tenant (`tid`), lowercased; null elsewhere. */
  tenantId: string | null;
  /** Microsoft's `xms_edov`: the tenant verified the domain of the address. */
  domainVerified: boolean;
  /** The `picture` claim, when the provider sent one (the member's `oauth_registrations`). */
  picture?: string;
  /** The `locale` claim, when the provider sent one. */
  locale?: string;
}

/** The tenant an identity belongs to, as organizations list them. */
function tenantOf(claims: FederatedClaims): string | null {
  return claims.provider === 'google' ? claims.hostedDomain : claims.tenantId;
}

/** Whether the organization lists the identity's tenant among its allowed ones. */
export function tenantAllowed(claims: FederatedClaims, org: Organization): boolean {
  const tenant = tenantOf(claims);
  const allowed: AllowedOAuthTenants = org.allowed_oauth_tenants ?? {};
  return tenant !== null && (allowed[claims.provider] ?? []).includes(tenant);
}

/**
 * Whether the provider vouches for the address, anywhere (`org` null) or in one organization
 * (where an allowed Microsoft tenant also counts).
 *
 * @example
 * vouchesForAddress({ provider: 'microsoft', domainVerified: false, tenantId: 'x', … }, null); // false
 */
export function vouchesForAddress(claims: FederatedClaims, org: Organization | null): boolean {
  if (claims.provider === 'google') return claims.emailVerified;
  if (claims.domainVerified) return true;
  return org !== null && tenantAllowed(claims, org);
}

/**
 * Whether the provider vouches that the person may join by the address's domain: the address is
 * vouched for and, for Google, the account is that domain's Workspace account.
 */
export function vouchesForDomain(claims: FederatedClaims, org: Organization | null): boolean {
  if (!vouchesForAddress(claims, org)) return false;
  return claims.provider !== 'google' || claims.hostedDomain === domainOf(claims.email);
}

/**
 * Whether a federated identity that is not yet a member may join the organization: by its tenant
 * (`oauth_tenant_jit_provisioning` `RESTRICTED` and the tenant allowed), or by the address's
 * domain under the e-mail JIT rules when the provider vouches for that domain. Null when it may;
 * else the JIT refusal to report.
 */
export function federatedJoinRefusal(
  claims: FederatedClaims,
  org: Organization,
): Exclude<JitDecision, 'allowed'> | null {
  if (
    org.oauth_tenant_jit_provisioning === 'RESTRICTED' &&
    tenantAllowed(claims, org) &&
    vouchesForAddress(claims, org)
  ) {
    return null;
  }
  const decision = jitDecision(org, claims.email);
  if (decision !== 'allowed') return decision;
  return vouchesForDomain(claims, org) ? null : 'invalid_email_for_jit_provisioning';
}

/**
 * Whether an organization's own OIDC connection vouches for the address it sent:
 * `email_verified` is true, or the claim is absent and the address's domain is one of the
 * organization's verified domains. Any other value of the claim (false, a string) is refused.
 *
 * @example
 * oidcConnectionVouches(undefined, 'ada@acme.test', { claimed_email_domains: ['acme.test'] }); // true
 * oidcConnectionVouches(false, 'ada@acme.test', { claimed_email_domains: ['acme.test'] }); // false
 */
export function oidcConnectionVouches(
  emailVerified: unknown,
  email: string,
  org: Pick<Organization, 'claimed_email_domains'>,
): boolean {
  if (emailVerified === true) return true;
  if (emailVerified !== undefined) return false;
  return org.claimed_email_domains.includes(domainOf(email));
}
