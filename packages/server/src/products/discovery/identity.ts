/** Who is discovering (§7.3): the caller of an `I` call, and which factors count where (§9). */
import type { AuthMethod, AuthenticationFactor, Member, Organization } from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import { linkOf } from '../../auth/federated/registrations.js';
import type { PresentedSession } from '../../auth/complete.js';
import {
  intermediateSessionNotFound,
  needsIstOrSession,
  sessionNotFound,
} from '../../auth/errors.js';
import { crossesOrganizations } from '../../auth/factor-scope.js';
import type { FederatedClaims } from '../../auth/federated/trust.js';
import { findIntermediateSession } from '../../auth/intermediate.js';
import type { Failure } from '../../result.js';
import { memberById } from '../../tenancy/members/store.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import type { Project } from '../../tenancy/projects/service.js';

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
   * The organizations whose own sign-in the IST's primary factor passed, when several did (a
   * discovery password that more than one membership accepts): it counts in each of them as in
   * `organizationId`. Empty otherwise, and for a session.
   */
  factorOrganizationIds: string[];
  /** The member of the session this identity came from; null for an IST. */
  sessionMemberId: string | null;
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

/** Identity fields that decide which factors count where. */
type FactorScope = Pick<
  DiscoveryIdentity,
  'factors' | 'organizationId' | 'factorOrganizationIds' | 'federated'
>;

/** Whether the identity's factors were proven by this organization's own sign-in. */
function provenIn(identity: FactorScope, organizationId: string): boolean {
  return (
    identity.organizationId === organizationId ||
    identity.factorOrganizationIds.includes(organizationId)
  );
}

/**
 * The factors an identity carries into an organization (§9): all of them back into an
 * organization they were proven in (`provenIn`); into any other (or a new one, `null`) only those
 * that prove the address wherever it is used (`crossesOrganizations`), so neither a second factor
 * nor an SSO sign-in or a password of one organization satisfies another.
 */
export function carriedInto(
  identity: FactorScope,
  organizationId: string | null,
): AuthenticationFactor[] {
  if (organizationId !== null && provenIn(identity, organizationId)) {
    return identity.factors;
  }
  const federated = identity.federated !== null;
  return identity.factors.filter((f) => crossesOrganizations(f, federated));
}

/**
 * The factors an identity carries to a member of another organization: {@link carriedInto}, and
 * a session's Google or Microsoft factor when that member has the same provider account linked as
 * the session's member (`auth/federated/registrations.ts`): the provider was trusted for that
 * account there already, under the federated trust rules, so signing in with it again would
 * pass. A member without that link (or no member yet) gets no OAuth factor from a session.
 *
 * @example
 * const factors = await carriedTo(trx, identity, org.organization_id, member);
 */
export async function carriedTo(
  db: Db,
  identity: FactorScope & Pick<DiscoveryIdentity, 'sessionMemberId'>,
  organizationId: string,
  member: Pick<Member, 'member_id'> | null,
): Promise<AuthenticationFactor[]> {
  const carried = carriedInto(identity, organizationId);
  const from = identity.sessionMemberId;
  if (provenIn(identity, organizationId) || from === null || member === null) {
    return carried;
  }
  const linked: AuthenticationFactor[] = [];
  for (const factor of identity.factors) {
    if (factor.type !== 'oauth' || carried.includes(factor)) continue;
    const provider = factor.delivery_method === 'oauth_microsoft' ? 'microsoft' : 'google';
    const [theirs, ours] = await Promise.all([
      linkOf(db, from, provider),
      linkOf(db, member.member_id, provider),
    ]);
    if (theirs && ours && theirs.issuer === ours.issuer && theirs.subject === ours.subject) {
      linked.push(factor);
    }
  }
  return [...carried, ...linked];
}

/** Whether the factors include a primary method the organization accepts. */
export function primarySatisfied(org: Organization, factors: AuthenticationFactor[]): boolean {
  return factors.some((f) => {
    const method = methodOf(f);
    return method !== null && allowsAuthMethod(org, method);
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
      factorOrganizationIds: ist.factorOrganizationIds,
      sessionMemberId: null,
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
      factorOrganizationIds: [],
      sessionMemberId: member.member_id,
      federated: null,
    };
  }
  if (sessionSent) return sessionNotFound();
  return needsIstOrSession();
}
