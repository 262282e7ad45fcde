/** Discovery (§7.3): which organizations an e-mail reaches, and entering or creating one. */
import type {
  AuthMethod,
  AuthenticationFactor,
  DiscoveredOrganization,
  DiscoveryResult,
  Organization,
} from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import {
  addressNotVouched,
  findOrProvisionMember,
  type Provisioned,
} from '../../auth/federated/provision.js';
import {
  federatedJoinRefusal,
  vouchesForAddress,
  vouchesForDomain,
  type FederatedClaims,
} from '../../auth/federated/trust.js';
import { emailFactor } from '../magic-links/service.js';
import { redeemForSignIn } from '../../auth/link-tokens.js';
import {
  ADMIN_ROLE,
  activateMember,
  createMember,
  memberByEmail,
  memberById,
  membersByEmail,
} from '../../tenancy/members/store.js';
import {
  SLUG_PATTERN,
  allowsAuthMethod,
  createOrganization,
  domainOf,
  jitDecision,
  type CreateOrganizationInput,
} from '../../tenancy/organizations/service.js';
import {
  organizationById,
  organizationBySlug,
  organizationsByIds,
  organizationsJoinableByDomain,
} from '../../tenancy/organizations/store.js';
import { refuseDiscoveryDomains } from '../../tenancy/organizations/jit-domains.js';
import type { Project } from '../../tenancy/projects/service.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import {
  completeAuthentication,
  mfaNeeded,
  mfaRequiredFor,
  type AuthOutcome,
  type PresentedSession,
} from '../../auth/complete.js';
import { factorsFor, primaryFactors } from '../../auth/factor-scope.js';
import { createIntermediateSession, findIntermediateSession } from '../../auth/intermediate.js';
import {
  intermediateSessionNotFound,
  needsIstOrSession,
  sessionNotFound,
} from '../../auth/errors.js';
import {
  discoveryLinkNotFound,
  istAwaitingSecondFactor,
  istOfAnotherMember,
  memberNotCreated,
  organizationCreationNotAllowed,
  primaryAuthRequired,
} from './errors.js';
import {
  invalidSlug,
  organizationNotFound,
  organizationSlugTaken,
} from '../../tenancy/organizations/errors.js';

/** Who is discovering: a verified address and the factors behind it. */
export interface DiscoveryIdentity {
  email: string;
  factors: AuthenticationFactor[];
  /** The IST this identity came from, voided once it yields a session; null for a session. */
  intermediateSessionId: string | null;
  /** Set when the IST is bound to one member (MFA pending): it may serve only that member. */
  boundMemberId: string | null;
  /** The organization of the session or bound IST, as a hint. */
  organizationId: string | null;
  /**
   * When the address came from a federated provider: what it vouched for, which decides per
   * organization whether the address counts (auth/federated/trust.ts). Null for a proven address.
   */
  federated: FederatedClaims | null;
}

/** The auth method a primary factor satisfies, or null for secondary factors. */
function methodOf(factor: AuthenticationFactor): AuthMethod | null {
  switch (factor.type) {
    case 'magic_link':
      return 'magic_link';
    case 'password':
      return 'password';
    case 'sso':
      return 'sso';
    case 'oauth':
      return factor.delivery_method === 'oauth_microsoft' ? 'microsoft_oauth' : 'google_oauth';
    default:
      return null;
  }
}

/**
 * The factors an identity carries into an organization (§9): all of them back into the
 * organization they were proven in, only the primary ones into any other, so a second factor
 * passed in one organization never satisfies another's MFA.
 */
function carriedInto(
  identity: Pick<DiscoveryIdentity, 'factors' | 'organizationId'>,
  organizationId: string,
): AuthenticationFactor[] {
  return identity.organizationId === organizationId
    ? identity.factors
    : primaryFactors(identity.factors);
}

/** Whether the factors include a primary method the organization accepts. */
function primarySatisfied(org: Organization, factors: AuthenticationFactor[]): boolean {
  return factors.some((f) => {
    const method = methodOf(f);
    return method !== null && allowsAuthMethod(org, method);
  });
}

/**
 * The organizations an address reaches: its memberships (active, invited, pending), then the
 * organizations that let its domain join.
 */
export async function discoverOrganizations(
  db: Db,
  project: Project,
  email: string,
  identity: Pick<DiscoveryIdentity, 'factors' | 'organizationId' | 'federated'>,
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
    const factors = await factorsFor(db, member, carriedInto(identity, org.organization_id));
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
      primary_required: primarySatisfied(org, identity.factors)
        ? null
        : { allowed_auth_methods: org.allowed_auth_methods },
    });
  }
  return found;
}

/** Redeems a discovery link: result DR with a fresh IST. */
/**
 * Discovery for an address a factor has just proved (a discovery link, OAuth): a new IST
 * carrying the factor, and the organizations the address reaches.
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
): Promise<Omit<DiscoveryResult, 'request_id' | 'status_code'>> {
  const ist = await createIntermediateSession(db, project, { email, factors, federated }, now);
  return {
    intermediate_session_token: ist,
    email_address: email,
    discovered_organizations: await discoverOrganizations(db, project, email, {
      factors,
      organizationId: null,
      federated,
    }),
  };
}

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

/**
 * Resolves the caller of an `I` call: the IST in the body, else the session. An invalid IST is
 * 404 `intermediate_session_not_found`; neither is 401 (§9).
 */
export async function discoveryIdentity(
  ctx: Context,
  project: Project,
  istToken: string | undefined,
  session: PresentedSession | null,
  sessionSent: boolean,
): Promise<DiscoveryIdentity | Failure> {
  if (istToken) {
    const ist = await findIntermediateSession(ctx.db, project.id, istToken, ctx.now());
    if (!ist) {
      return intermediateSessionNotFound();
    }
    return {
      email: ist.email,
      factors: ist.factors,
      intermediateSessionId: ist.id,
      boundMemberId: ist.memberId,
      organizationId: ist.organizationId,
      federated: ist.federated,
    };
  }
  if (session) {
    const member = await memberById(ctx.db, project.id, session.row.member_id);
    if (!member) return sessionNotFound();
    return {
      email: member.email_address,
      factors: JSON.parse(session.row.factors) as AuthenticationFactor[],
      intermediateSessionId: null,
      boundMemberId: null,
      organizationId: session.row.organization_id,
      federated: null,
    };
  }
  if (sessionSent) return sessionNotFound();
  return needsIstOrSession();
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

/** Optional fields of a discovery organization create. */
export type DiscoveryCreateInput = Partial<CreateOrganizationInput> & {
  session_duration_minutes: number;
};

/** How often a discovery creation looks for a free default slug before giving up with 400. */
const DEFAULT_SLUG_ATTEMPTS = 5;

/** A name and a free slug derived from the address's domain (`jane@acme.com` → `acme`, `acme-2`…). */
async function defaultNameAndSlug(db: Db, projectId: string, email: string, name?: string) {
  const domain = domainOf(email);
  const label = domain.split('.')[0] ?? domain;
  const base = (name ?? label)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  const stem = base.length >= 2 ? base : `${base || 'org'}-org`;
  let slug = stem;
  for (let n = 2; await organizationBySlug(db, projectId, slug); n += 1) slug = `${stem}-${n}`;
  return { name: name ?? label, slug };
}

/**
 * Creates an organization for the identity, makes it the creator (`admin` and `member`), and
 * grants result AM.
 */
export async function createOrganizationByDiscovery(
  ctx: Context,
  project: Project,
  identity: DiscoveryIdentity,
  input: DiscoveryCreateInput,
): Promise<AuthOutcome | Failure> {
  if (identity.boundMemberId !== null) {
    // An MFA-bound IST proves only a primary factor of a member who still owes a second one: it
    // may finish that member's sign-in, never found an organization of its own (§9).
    return istAwaitingSecondFactor();
  }
  if (!project.createOrganizationEnabled) {
    return organizationCreationNotAllowed();
  }
  if (input.organization_slug !== undefined && !SLUG_PATTERN.test(input.organization_slug)) {
    return invalidSlug();
  }
  // An address a provider does not vouch for everywhere may not found an organization.
  if (identity.federated && !vouchesForAddress(identity.federated, null)) {
    return addressNotVouched(identity.email);
  }
  // Self-service may claim only the creator's own domain for JIT; others need the management API.
  const domainRefused = refuseDiscoveryDomains(identity.email, input.email_allowed_domains);
  if (domainRefused) return domainRefused;
  // A refusal (a slug or an IST taken by a concurrent call) must not leave the organization behind.
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    let org: Organization | 'slug_taken' = 'slug_taken';
    // A default slug that a concurrent creation took after it was chosen moves on to the next
    // suffix; an explicit one is refused.
    for (let attempt = 0; org === 'slug_taken' && attempt < DEFAULT_SLUG_ATTEMPTS; attempt += 1) {
      const defaults = await defaultNameAndSlug(
        trx,
        project.id,
        identity.email,
        input.organization_name,
      );
      org = await createOrganization(
        trx,
        project.id,
        project.environment,
        {
          ...input,
          organization_name: input.organization_name ?? defaults.name,
          organization_slug: input.organization_slug ?? defaults.slug,
        },
        now,
      );
      if (input.organization_slug !== undefined) break;
    }
    if (org === 'slug_taken') {
      return organizationSlugTaken();
    }
    const member = await createMember(
      trx,
      project.id,
      project.environment,
      org.organization_id,
      { email_address: identity.email, status: 'active', roles: [ADMIN_ROLE], emailVerified: true },
      now,
    );
    if (member === 'email_taken') {
      return memberNotCreated();
    }
    return completeAuthentication(ctx, trx, {
      project,
      organization: org,
      member,
      factors: primaryFactors(identity.factors),
      durationMinutes: input.session_duration_minutes,
      intermediateSessionId: identity.intermediateSessionId,
    });
  });
}

/**
 * The member a federated identity is in the organization: the provider must vouch for the
 * address here, or for its domain (or tenant) to join as a new member.
 */
function joinFederated(
  db: Db,
  project: Project,
  org: Organization,
  claims: FederatedClaims,
  now: number,
): Promise<Provisioned | Failure> {
  const refusal = federatedJoinRefusal(claims, org);
  return findOrProvisionMember(
    db,
    project,
    org,
    {
      email: claims.email,
      name: '',
      link: { provider: claims.provider, issuer: claims.issuer, subject: claims.subject },
    },
    {
      vouched: vouchesForAddress(claims, org),
      joinRefusal:
        refusal === null
          ? null
          : fail('member_not_found', `${claims.email} is not a member of this organization.`),
    },
    now,
  );
}

/**
 * Enters an organization with an identity (§7.3 exchange): an active member authenticates; an
 * invited or pending one is activated; an address the organization admits by domain joins.
 */
export async function enterOrganization(
  ctx: Context,
  project: Project,
  identity: DiscoveryIdentity,
  input: { organization_id: string; session_duration_minutes: number },
  presented: PresentedSession | null,
): Promise<AuthOutcome | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const org = await organizationById(trx, project.id, input.organization_id);
    if (!org) return organizationNotFound();
    let member = await memberByEmail(trx, org.organization_id, identity.email);
    if (identity.boundMemberId && member?.member_id !== identity.boundMemberId) {
      return istOfAnotherMember();
    }
    const factors = carriedInto(identity, org.organization_id);
    if (!primarySatisfied(org, factors)) {
      return primaryAuthRequired();
    }
    if (identity.federated) {
      const joined = await joinFederated(trx, project, org, identity.federated, now);
      if (isFailure(joined)) return joined;
      member = joined.member;
    } else if (member && member.status !== 'deleted') {
      member = await activateMember(trx, member, now);
    } else if (!member && jitDecision(org, identity.email) === 'allowed') {
      const created = await createMember(
        trx,
        project.id,
        project.environment,
        org.organization_id,
        { email_address: identity.email, status: 'active', emailVerified: true },
        now,
      );
      // A concurrent exchange of the same address created the member first: enter as that one.
      member =
        created === 'email_taken'
          ? await memberByEmail(trx, org.organization_id, identity.email)
          : created;
    } else {
      member = null;
    }
    if (!member || member.status === 'deleted') {
      return fail('member_not_found', `${identity.email} is not a member of this organization.`);
    }
    return completeAuthentication(ctx, trx, {
      project,
      organization: org,
      member,
      factors,
      durationMinutes: input.session_duration_minutes,
      presented,
      // Entering with a session proves nothing new: the new session inherits its lifetime.
      continues: identity.intermediateSessionId === null ? presented?.row : null,
      intermediateSessionId: identity.intermediateSessionId,
    });
  });
}
