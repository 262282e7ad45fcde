/**
 * Discovery's exchanges (§7.3): entering an organization with a discovered identity, or creating
 * one for it.
 */
import type { Organization } from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import {
  completeAuthentication,
  type AuthOutcome,
  type PresentedSession,
} from '../../auth/complete.js';
import type { ClientInfo } from '../../auth/client-info.js';
import {
  addressNotVouched,
  findOrProvisionMember,
  type Provisioned,
} from '../../auth/federated/provision.js';
import {
  federatedJoinRefusal,
  vouchesForAddress,
  type FederatedClaims,
} from '../../auth/federated/trust.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import {
  ADMIN_ROLE,
  activateMember,
  createMember,
  memberByEmail,
} from '../../tenancy/members/store.js';
import {
  invalidSlug,
  organizationNotFound,
  organizationSlugTaken,
} from '../../tenancy/organizations/errors.js';
import { refuseDiscoveryDomains } from '../../tenancy/organizations/jit-domains.js';
import {
  SLUG_PATTERN,
  createOrganization,
  domainOf,
  jitDecision,
  type CreateOrganizationInput,
} from '../../tenancy/organizations/service.js';
import { organizationById, organizationBySlug } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  istAwaitingSecondFactor,
  istOfAnotherMember,
  memberNotCreated,
  organizationCreationNotAllowed,
  primaryAuthRequired,
} from './errors.js';
import { carriedInto, carriedTo, primarySatisfied, type DiscoveryIdentity } from './identity.js';

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
  client: ClientInfo,
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
  // A new organization is another organization: only a proof of the address founds one, never
  // an SSO sign-in or a password of an organization the identity comes from.
  const factors = carriedInto(identity, null);
  if (factors.length === 0) return primaryAuthRequired();
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
      factors,
      durationMinutes: input.session_duration_minutes,
      intermediateSessionId: identity.intermediateSessionId,
      client,
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
      profile: { profilePictureUrl: claims.picture, locale: claims.locale },
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
  client: ClientInfo,
): Promise<AuthOutcome | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const org = await organizationById(trx, project.id, input.organization_id);
    if (!org) return organizationNotFound();
    let member = await memberByEmail(trx, org.organization_id, identity.email);
    if (identity.boundMemberId && member?.member_id !== identity.boundMemberId) {
      return istOfAnotherMember();
    }
    const factors = await carriedTo(trx, identity, org.organization_id, member);
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
      client,
    });
  });
}
