/**
 * Discovery (§7.3): which organizations an e-mail reaches, and entering or creating one. The
 * caller's identity is resolved in identity.ts, the exchanges are in enter.ts; this module is the
 * product's one face to routes and to other products.
 */
import type {
  AuthenticationFactor,
  DiscoveredOrganization,
  DiscoveryResult,
} from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import { mfaNeeded, mfaRequiredFor } from '../../auth/complete.js';
import { factorsFor } from '../../auth/factor-scope.js';
import {
  vouchesForAddress,
  vouchesForDomain,
  type FederatedClaims,
} from '../../auth/federated/trust.js';
import { createIntermediateSession } from '../../auth/intermediate.js';
import { redeemForSignIn } from '../../auth/link-tokens.js';
import { allOrNothing, isFailure, type Failure } from '../../result.js';
import { membersByEmail } from '../../tenancy/members/store.js';
import { domainOf } from '../../tenancy/organizations/service.js';
import {
  organizationsByIds,
  organizationsJoinableByDomain,
} from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { emailFactor } from '../magic-links/service.js';
import { discoveryLinkNotFound } from './errors.js';
import { carriedInto, carriedTo, primarySatisfied, type DiscoveryIdentity } from './identity.js';

export { createOrganizationByDiscovery, enterOrganization } from './enter.js';
export { discoveryIdentity, type DiscoveryIdentity } from './identity.js';

/**
 * The organizations an address reaches: its memberships (active, invited, pending), then the
 * organizations that let its domain join.
 */
export async function discoverOrganizations(
  db: Db,
  project: Project,
  email: string,
  identity: Pick<
    DiscoveryIdentity,
    'factors' | 'organizationId' | 'factorOrganizationIds' | 'federated' | 'sessionMemberId'
  >,
): Promise<DiscoveredOrganization[]> {
  const { federated } = identity;
  const members = await membersByEmail(db, project.id, email);
  const orgs = await organizationsByIds(
    db,
    project.id,
    members.map((m) => m.organization_id),
  );
  const byId = new Map(orgs.map((o) => [o.organization_id, o]));
  const found: DiscoveredOrganization[] = [];
  for (const member of members) {
    const org = byId.get(member.organization_id);
    // A membership counts only where the provider vouches for the address.
    if (!org || (federated && !vouchesForAddress(federated, org))) continue;
    const carried = await carriedTo(db, identity, org.organization_id, member);
    const factors = await factorsFor(db, member, carried);
    const primaryOk = primarySatisfied(org, factors);
    found.push({
      organization: org,
      membership: {
        type: `${member.status as 'active' | 'invited' | 'pending'}_member`,
        details: null,
        member,
      },
      member_authenticated: false,
      mfa_required: primaryOk && mfaNeeded(org, member, factors) ? mfaRequiredFor(member) : null,
      primary_required: primaryOk ? null : { allowed_auth_methods: org.allowed_auth_methods },
    });
  }
  const domain = domainOf(email);
  for (const org of await organizationsJoinableByDomain(db, project.id, domain)) {
    if (byId.has(org.organization_id)) continue;
    // Joining by domain needs a provider that vouches for the domain (a Workspace account).
    if (federated && !vouchesForDomain(federated, org)) continue;
    found.push({
      organization: org,
      membership: { type: 'eligible_to_join_by_email_domain', details: { domain }, member: null },
      member_authenticated: false,
      mfa_required: null,
      primary_required: primarySatisfied(org, carriedInto(identity, org.organization_id))
        ? null
        : { allowed_auth_methods: org.allowed_auth_methods },
    });
  }
  return found;
}

/**
 * Discovery for an address a factor has just proved (a discovery link, OAuth): a new IST
 * carrying the factor, and the organizations the address reaches. A factor of memberships (a
 * password) names the organizations it counts in (docs/security.md): one as `organizationId`,
 * several as `factorOrganizationIds`.
 *
 * @example
 * return startDiscovery(trx, project, token.email, [emailFactor(token.email, '', now)], now);
 */
export async function startDiscovery(
  db: Db,
  project: Project,
  email: string,
  factors: AuthenticationFactor[],
  now: number,
  federated: FederatedClaims | null = null,
  provenIn: string[] = [],
): Promise<Omit<DiscoveryResult, 'request_id' | 'status_code'>> {
  // One organization is the IST's own, as before; several are listed beside it.
  const organizationId = provenIn.length === 1 ? (provenIn[0] ?? null) : null;
  const factorOrganizationIds = provenIn.length > 1 ? provenIn : [];
  const ist = await createIntermediateSession(
    db,
    project,
    {
      email,
      factors,
      federated,
      factorOrganizationIds,
      ...(organizationId === null ? {} : { organizationId }),
    },
    now,
  );
  return {
    intermediate_session_token: ist,
    email_address: email,
    discovered_organizations: await discoverOrganizations(db, project, email, {
      factors,
      organizationId,
      factorOrganizationIds,
      federated,
      sessionMemberId: null,
    }),
  };
}

/** Redeems a discovery link: result DR with a fresh IST. */
export async function authenticateDiscoveryLink(
  ctx: Context,
  project: Project,
  input: { discovery_magic_links_token: string; pkce_code_verifier?: string | undefined },
): Promise<Omit<DiscoveryResult, 'request_id' | 'status_code'> | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const token = await redeemForSignIn(
      trx,
      project.id,
      'discovery',
      input.discovery_magic_links_token,
      input.pkce_code_verifier,
      now,
      discoveryLinkNotFound,
    );
    if (isFailure(token)) return token;
    return startDiscovery(trx, project, token.email, [emailFactor(token.email, '', now)], now);
  });
}

/** `{email_address, discovered_organizations, organization_id_hint}` for an identity. */
export async function listDiscovered(ctx: Context, project: Project, identity: DiscoveryIdentity) {
  return {
    email_address: identity.email,
    discovered_organizations: await discoverOrganizations(
      ctx.db,
      project,
      identity.email,
      identity,
    ),
    organization_id_hint: identity.organizationId,
  };
}
