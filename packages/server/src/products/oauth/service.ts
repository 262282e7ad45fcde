/**
 * Google and Microsoft sign-in (docs/protocol.md §7.6, §8): who the person is in an organization
 * under the trust rule of federated sign-in, and the `oauth` / `discovery_oauth` tokens the app
 * redeems. Settings are in providers.ts, the start in start.ts, the callback in callback.ts.
 */
import {
  FEDERATED_TOKEN_MINUTES,
  type AuthenticationFactor,
  type DiscoveryResult,
  type Member,
  type OAuthProviderName,
  type OAuthProviderValues,
  type Organization,
} from '@gatehouse/protocol';
import type { AuthOutcome, PresentedSession } from '../../auth/complete.js';
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
import { completePrimary } from '../../auth/primary.js';
import type { ClientInfo } from '../../auth/client-info.js';
import { isoAt, type Context, type Db } from '../../context.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import type { OAuthRequestsTable } from '../../store/schema.js';
import { startDiscovery } from '../discovery/service.js';
import { issueLinkToken, redeemForSignIn } from '../../auth/link-tokens.js';
import { memberRemoved } from '../../tenancy/members/errors.js';
import { memberById } from '../../tenancy/members/store.js';
import { organizationGone } from '../../tenancy/organizations/errors.js';
import { allowsAuthMethod, domainOf, jitDecision } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { oauthTokenNotFound } from './errors.js';

/** What the provider said about the person, and its tokens. */
export interface ProviderIdentity {
  email: string;
  name: string;
  /** The claims that decide trust (issuer, subject, `email_verified`, `hd`, `tid`, `xms_edov`). */
  claims: FederatedClaims;
  values: OAuthProviderValues;
}

/** Claims that vouch for nothing, for tokens written before claims were kept. */
function unvouched(provider: OAuthProviderName, email: string): FederatedClaims {
  return {
    provider,
    issuer: '',
    subject: '',
    email,
    emailVerified: false,
    hostedDomain: null,
    tenantId: null,
    domainVerified: false,
  };
}

/** Why the person may not join as a new member, in words, or null when they may. */
function joinRefusal(identity: ProviderIdentity, org: Organization): Failure | null {
  const refusal = federatedJoinRefusal(identity.claims, org);
  if (refusal === null) return null;
  const domain = domainOf(identity.email);
  if (
    identity.claims.provider === 'google' &&
    jitDecision(org, identity.email) === 'allowed' &&
    identity.claims.hostedDomain !== domain
  ) {
    return fail(refusal, `${identity.email} is not a ${domain} Google Workspace account.`);
  }
  return fail(refusal, `${identity.email} may not join ${org.organization_name} this way.`);
}

/**
 * The member this person is in the organization, under the trust rule of federated sign-in
 * (auth/federated/trust.ts): the member its provider identity is linked to, else the member with
 * the address when the provider vouches for it here, else a new member when the organization
 * admits the person by the address's domain or by the provider tenant.
 */
export async function joinOrganization(
  db: Db,
  project: Project,
  org: Organization,
  identity: ProviderIdentity,
  now: number,
): Promise<Provisioned | Failure> {
  if (!vouchesForAddress(identity.claims, org)) return addressNotVouched(identity.email);
  return findOrProvisionMember(
    db,
    project,
    org,
    {
      email: identity.email,
      name: identity.name,
      link: {
        provider: identity.claims.provider,
        issuer: identity.claims.issuer,
        subject: identity.claims.subject,
      },
      profile: { profilePictureUrl: identity.claims.picture, locale: identity.claims.locale },
    },
    { vouched: true, joinRefusal: joinRefusal(identity, org) },
    now,
  );
}

/** Issues the `oauth` (a member) or `discovery_oauth` token, the provider's tokens sealed in it. */
export async function issueToken(
  ctx: Context,
  db: Db,
  project: Project,
  provider: OAuthProviderName,
  identity: ProviderIdentity,
  member: Member | null,
  request: Pick<OAuthRequestsTable, 'pkce_challenge' | 'organization_id'>,
  now: number,
): Promise<string> {
  return issueLinkToken(
    db,
    {
      projectId: project.id,
      kind: member ? 'oauth' : 'discovery_oauth',
      email: identity.email,
      organizationId: request.organization_id,
      pkceChallenge: request.pkce_challenge,
      lifetimeMinutes: FEDERATED_TOKEN_MINUTES,
      details: JSON.stringify({
        provider,
        member_id: member?.member_id ?? null,
        provider_values: ctx.box.seal(JSON.stringify(identity.values)),
        claims: identity.claims,
      } satisfies TokenDetails),
    },
    now,
  );
}

/** What an OAuth token carries besides its address and organization. */
interface TokenDetails {
  provider: OAuthProviderName;
  member_id: string | null;
  /** The provider's tokens, sealed with the server key. */
  provider_values: string;
  /** What the provider vouched for; discovery applies it per organization. */
  claims?: FederatedClaims;
}

/** The factor an OAuth sign-in proves. */
function oauthFactor(
  provider: OAuthProviderName,
  email: string,
  now: number,
): AuthenticationFactor {
  return {
    type: 'oauth',
    delivery_method: `oauth_${provider}`,
    last_authenticated_at: isoAt(now),
    sequence_order: 'PRIMARY',
    [`${provider}_oauth_factor`]: { email_address: email },
  };
}

/** What an OAuth sign-in adds to result AM: the provider's tokens, its name and the account's id. */
export interface OAuthSignInValues {
  provider_values: OAuthProviderValues;
  provider_type: OAuthProviderName;
  provider_subject: string;
}

/**
 * Redeems an `oauth` token once (PKCE-bound when the start carried a challenge): result AM with
 * the organization's MFA policy applied, plus the provider's tokens.
 */
export async function authenticateOAuth(
  ctx: Context,
  project: Project,
  input: {
    oauth_token: string;
    session_duration_minutes: number;
    pkce_code_verifier?: string | undefined;
    intermediate_session_token?: string | undefined;
  },
  presented: PresentedSession | null,
  client: ClientInfo,
): Promise<(AuthOutcome & OAuthSignInValues) | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const token = await redeemForSignIn(
      trx,
      project.id,
      'oauth',
      input.oauth_token,
      input.pkce_code_verifier,
      now,
      oauthTokenNotFound,
    );
    if (isFailure(token)) return token;
    if (!token.organization_id || !token.details) return oauthTokenNotFound();
    const details = JSON.parse(token.details) as TokenDetails;
    const org = await organizationById(trx, project.id, token.organization_id);
    if (!org) return organizationGone();
    if (!allowsAuthMethod(org, `${details.provider}_oauth`)) {
      return fail(
        'auth_method_not_allowed',
        `This organization does not allow ${details.provider} sign-in.`,
      );
    }
    const member = details.member_id ? await memberById(trx, project.id, details.member_id) : null;
    if (!member || member.status === 'deleted') return memberRemoved();
    const outcome = await completePrimary(
      ctx,
      trx,
      {
        project,
        organization: org,
        member,
        factors: [oauthFactor(details.provider, member.email_address, now)],
        durationMinutes: input.session_duration_minutes,
        presented,
        client,
        intermediateSessionToken: input.intermediate_session_token,
      },
      now,
    );
    if (isFailure(outcome)) return outcome;
    const values = JSON.parse(ctx.box.open(details.provider_values)) as OAuthProviderValues;
    return {
      ...outcome,
      provider_values: values,
      provider_type: details.provider,
      // A token issued before the claims were recorded does not know the account's id.
      provider_subject: details.claims?.subject ?? '',
    };
  });
}

/** Redeems a `discovery_oauth` token: result DR with a fresh IST, like a discovery link. */
export async function authenticateOAuthDiscovery(
  ctx: Context,
  project: Project,
  input: { discovery_oauth_token: string; pkce_code_verifier?: string | undefined },
): Promise<Omit<DiscoveryResult, 'request_id' | 'status_code'> | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const token = await redeemForSignIn(
      trx,
      project.id,
      'discovery_oauth',
      input.discovery_oauth_token,
      input.pkce_code_verifier,
      now,
      oauthTokenNotFound,
    );
    if (isFailure(token)) return token;
    if (!token.details) return oauthTokenNotFound();
    const details = JSON.parse(token.details) as TokenDetails;
    const factors = [oauthFactor(details.provider, token.email, now)];
    // A token issued before trust claims were recorded vouches for nothing.
    const claims = details.claims ?? unvouched(details.provider, token.email);
    return startDiscovery(trx, project, token.email, factors, now, claims);
  });
}
