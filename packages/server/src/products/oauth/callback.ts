/**
 * The provider's callback (docs/protocol.md §8): claims the request by its state (once, from the
 * browser that started it), exchanges the code with our PKCE verifier, checks the ID token, and
 * signs the person in to the organization or hands discovery what the provider vouched for.
 */
import type { OAuthProviderName } from '@gatehouse/protocol';
import { displayName, federatedClaims } from '../../auth/federated/claims.js';
import {
  completeAuthorization,
  reasonOf,
  type CompletedAuthorization,
} from '../../auth/federated/oidc-client.js';
import { addressNotVouched } from '../../auth/federated/provision.js';
import { vouchesForAddress, type FederatedClaims } from '../../auth/federated/trust.js';
import { isoAt, type Context, type Db } from '../../context.js';
import { hashToken, safeEqual } from '../../crypto/random.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import { normalizeEmail } from '../../tenancy/members/store.js';
import { organizationGone } from '../../tenancy/organizations/errors.js';
import {
  organizationById,
  organizationsAllowingTenant,
} from '../../tenancy/organizations/store.js';
import { withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { noEmail, otherBrowser, providerNotConfigured, unknownState } from './errors.js';
import { isProvider, providerConfig, redirectUri } from './providers.js';
import { issueToken, joinOrganization, type ProviderIdentity } from './service.js';
import type { Destinations } from './start.js';
import { claimOAuthRequest } from './store.js';

/**
 * Whether the provider vouches for the address anywhere discovery could take it: everywhere, or
 * (Microsoft) in an organization of the project that allows the token's tenant.
 */
async function discoverable(db: Db, project: Project, claims: FederatedClaims): Promise<boolean> {
  if (vouchesForAddress(claims, null)) return true;
  if (claims.provider !== 'microsoft' || claims.tenantId === null) return false;
  const orgs = await organizationsAllowingTenant(db, project.id, 'microsoft', claims.tenantId);
  return orgs.length > 0;
}

/** The person as the provider describes them, with its tokens. */
function identityOf(
  provider: OAuthProviderName,
  completed: CompletedAuthorization,
  scopes: string,
  now: number,
): ProviderIdentity | Failure {
  const { tokens, claims } = completed;
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : '';
  if (email === '') return noEmail();
  const expiresIn = tokens.expiresIn();
  return {
    email,
    name: displayName(claims),
    claims: federatedClaims(provider, claims, email),
    values: {
      access_token: tokens.access_token,
      id_token: completed.idToken,
      refresh_token: tokens.refresh_token ?? '',
      scopes: (tokens.scope ?? scopes).split(' ').filter(Boolean),
      expires_at: expiresIn === undefined ? '' : isoAt(now + expiresIn * 1000),
    },
  };
}

/**
 * The callback (§8): claims the request by its state (once), exchanges the code with our PKCE
 * verifier and checks the ID token (signature against the provider's JWKS, `iss`, `aud`, `exp`,
 * `iat`, nonce); then signs the person in to the organization, or hands discovery the address
 * when the provider vouches for it.
 */
export async function finishOAuth(
  ctx: Context,
  providerName: string,
  query: URLSearchParams,
  browser: string | null,
): Promise<{ location: string } | Failure> {
  if (!isProvider(providerName)) return providerNotConfigured();
  const provider = providerName;
  const state = query.get('state') ?? '';
  const now = ctx.now();
  const request =
    state === '' ? undefined : await claimOAuthRequest(ctx.db, provider, hashToken(state), now);
  if (!request) return unknownState();
  // The state is spent either way: a callback in another browser (a login forced on someone
  // else) cannot be retried from the browser that started.
  if (
    browser === null ||
    request.browser_hash === null ||
    !safeEqual(request.browser_hash, hashToken(browser))
  ) {
    return otherBrowser();
  }
  const error = query.get('error');
  if (error !== null) {
    return fail('invalid_oidc_response', `The provider refused the sign-in: ${error}.`);
  }
  const project = await ctx.projects.byId(request.project_id);
  if (!project) return unknownState();
  const config = await providerConfig(ctx, project, provider);
  if (isFailure(config)) return config;

  let identity: ProviderIdentity | Failure;
  try {
    const callbackUrl = new URL(redirectUri(ctx, provider));
    callbackUrl.search = query.toString();
    const completed = await completeAuthorization(config, callbackUrl, {
      pkceCodeVerifier: ctx.box.open(request.code_verifier_encrypted),
      expectedState: state,
      expectedNonce: request.nonce,
    });
    if (!completed) return fail('invalid_oidc_response', 'The provider sent no ID token.');
    identity = identityOf(provider, completed, request.scopes, now);
  } catch (thrown) {
    return fail('invalid_oidc_response', `The provider's answer was refused: ${reasonOf(thrown)}`);
  }
  if (isFailure(identity)) return identity;
  const person = identity;

  const destinations = JSON.parse(request.redirect_urls) as Destinations;
  return allOrNothing(ctx.db, async (trx) => {
    if ('discovery' in destinations) {
      if (!(await discoverable(trx, project, person.claims)))
        return addressNotVouched(person.email);
      const token = await issueToken(ctx, trx, project, provider, person, null, request, now);
      return { location: withToken(destinations.discovery, 'discovery_oauth', token) };
    }
    const org = request.organization_id
      ? await organizationById(trx, project.id, request.organization_id)
      : null;
    if (!org) return organizationGone();
    const joined = await joinOrganization(trx, project, org, person, now);
    if (isFailure(joined)) return joined;
    const token = await issueToken(
      ctx,
      trx,
      project,
      provider,
      person,
      joined.member,
      request,
      now,
    );
    const url = joined.created ? destinations.signup : destinations.login;
    return { location: withToken(url, 'oauth', token) };
  });
}
