/**
 * Google and Microsoft sign-in (docs/protocol.md §7.6, §8): the project's provider settings, the
 * start at the provider with our own state, nonce and PKCE, the callback (openid-client checks
 * the code exchange and the ID token), and the `oauth` / `discovery_oauth` tokens the app redeems.
 */
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_OAUTH_ISSUERS,
  FEDERATED_TOKEN_MINUTES,
  OAUTH_PROVIDERS,
  type AuthenticationFactor,
  type DiscoveryResult,
  type Member,
  type OAuthProviderName,
  type OAuthProviderSettings,
  type OAuthProviderValues,
  type Organization,
} from '@gatehouse/protocol';
import type { oauthProviderFields } from '@gatehouse/protocol/endpoints';
import * as oidc from 'openid-client';
import type { z } from 'zod';
import { completePrimary } from '../../auth/primary.js';
import type { AuthOutcome, PresentedSession } from '../../auth/complete.js';
import { isoAt, type Context, type Db } from '../../context.js';
import { hashToken, newToken, safeEqual } from '../../crypto/random.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import type { OAuthProvidersTable, OAuthRequestsTable } from '../../store/schema.js';
import { startDiscovery } from '../discovery/service.js';
import { issueLinkToken, redeemLinkToken } from '../magic-links/store.js';
import { memberRemoved } from '../members/errors.js';
import {
  activateMember,
  createMember,
  memberByEmail,
  memberById,
  normalizeEmail,
} from '../members/store.js';
import { organizationGone } from '../organizations/errors.js';
import { allowsAuthMethod, domainOf, jitDecision } from '../organizations/service.js';
import { organizationById, organizationBySlug } from '../organizations/store.js';
import { resolveRedirectUrl, withToken } from '../projects/policy.js';
import type { Project } from '../projects/service.js';
import { discoverProvider } from '../sso/oidc-discovery.js';
import { isMultiTenant, verifyTenantIdToken, withIdTokenSetAside } from './id-tokens.js';
import {
  emailNotVerified,
  noEmail,
  otherBrowser,
  oauthTokenNotFound,
  organizationMissing,
  pkceMismatch,
  pkceRequired,
  providerNotConfigured,
  unknownState,
} from './errors.js';
import { claimOAuthRequest, insertOAuthRequest, providerRow, saveProviderRow } from './store.js';

const BASE_SCOPES = ['openid', 'email', 'profile'];
/** Query parameters of ours that `provider_*` may not override. */
const RESERVED = new Set([
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
]);

export function isProvider(name: string): name is OAuthProviderName {
  return (OAUTH_PROVIDERS as readonly string[]).includes(name);
}

function redirectUri(ctx: Context, provider: OAuthProviderName): string {
  return `${ctx.config.publicUrl}/v1/b2b/public/oauth/${provider}/callback`;
}

function toSettings(
  ctx: Context,
  provider: OAuthProviderName,
  row:
    | Pick<
        OAuthProvidersTable,
        'enabled' | 'client_id' | 'secret_encrypted' | 'issuer' | 'onetap_client_id'
      >
    | undefined,
): OAuthProviderSettings {
  return {
    provider,
    enabled: row?.enabled === 1,
    client_id: row?.client_id ?? '',
    client_secret_set: (row?.secret_encrypted ?? null) !== null,
    issuer: row?.issuer || DEFAULT_OAUTH_ISSUERS[provider],
    onetap_client_id: row?.onetap_client_id ?? '',
    redirect_uri: redirectUri(ctx, provider),
  };
}

/** The project's settings for both providers. */
export async function listProviders(
  ctx: Context,
  project: Project,
): Promise<OAuthProviderSettings[]> {
  return Promise.all(
    OAUTH_PROVIDERS.map(async (p) => toSettings(ctx, p, await providerRow(ctx.db, project.id, p))),
  );
}

/**
 * Changes a provider's settings. Turning a provider on needs a client ID and secret, and its
 * issuer's discovery document must be readable: a broken setting is refused, not saved.
 */
export async function setProvider(
  ctx: Context,
  project: Project,
  provider: string,
  input: z.output<typeof oauthProviderFields>,
): Promise<OAuthProviderSettings | Failure> {
  if (!isProvider(provider))
    return fail('invalid_request', 'The provider must be google or microsoft.');
  const current = await providerRow(ctx.db, project.id, provider);
  const row: OAuthProvidersTable = {
    project_id: project.id,
    provider,
    enabled: (input.enabled ?? current?.enabled === 1) ? 1 : 0,
    client_id: input.client_id ?? current?.client_id ?? '',
    secret_encrypted:
      input.client_secret !== undefined
        ? ctx.box.seal(input.client_secret)
        : (current?.secret_encrypted ?? null),
    issuer: input.issuer ?? current?.issuer ?? '',
    onetap_client_id: input.onetap_client_id ?? current?.onetap_client_id ?? '',
    updated_at: isoAt(ctx.now()),
  };
  if (row.enabled === 1) {
    if (row.client_id === '' || row.secret_encrypted === null) {
      return fail('invalid_request', 'Give a client_id and a client_secret to turn a provider on.');
    }
    const config = await discoverProvider(
      row.issuer || DEFAULT_OAUTH_ISSUERS[provider],
      row.client_id,
      ctx.box.open(row.secret_encrypted),
    );
    if (isFailure(config)) return config;
  }
  await saveProviderRow(ctx.db, row);
  providerCache.delete(`${project.id}:${provider}`);
  return toSettings(ctx, provider, row);
}

// Discovery documents are read once per provider setting and kept a few minutes, per process.
const PROVIDER_CACHE_MS = 10 * 60_000;
const providerCache = new Map<
  string,
  { at: number; updatedAt: string; config: oidc.Configuration }
>();

/** The provider's openid-client configuration, or a failure when it is off or unreachable. */
async function providerConfig(
  ctx: Context,
  project: Project,
  provider: OAuthProviderName,
): Promise<oidc.Configuration | Failure> {
  const row = await providerRow(ctx.db, project.id, provider);
  if (!row || row.enabled !== 1 || row.client_id === '' || row.secret_encrypted === null) {
    return providerNotConfigured();
  }
  const key = `${project.id}:${provider}`;
  const cached = providerCache.get(key);
  if (cached && cached.updatedAt === row.updated_at && Date.now() - cached.at < PROVIDER_CACHE_MS) {
    return cached.config;
  }
  const config = await discoverProvider(
    row.issuer || DEFAULT_OAUTH_ISSUERS[provider],
    row.client_id,
    ctx.box.open(row.secret_encrypted),
  );
  if (isFailure(config)) return config;
  providerCache.set(key, { at: Date.now(), updatedAt: row.updated_at, config });
  return config;
}

/** Google's configuration for a project (One Tap verifies against its JWKS). */
export function googleConfig(
  ctx: Context,
  project: Project,
): Promise<oidc.Configuration | Failure> {
  return providerConfig(ctx, project, 'google');
}

/** Where an OAuth sign-in returns: the login and signup URLs, or the discovery URL. */
type Destinations = { login: string; signup: string } | { discovery: string };

/**
 * Starts an OAuth sign-in (§8): checks the provider, the organization (by id or slug, unless
 * discovery) and that it allows this provider, the redirect URLs and PKCE, stores the request and
 * answers the provider's authorization URL.
 */
export async function startOAuth(
  ctx: Context,
  project: Project,
  providerName: string,
  query: URLSearchParams,
  discovery: boolean,
  browser: string,
): Promise<{ location: string } | Failure> {
  if (!isProvider(providerName)) return providerNotConfigured();
  const provider = providerName;
  let organization: Organization | null = null;
  let destinations: Destinations;
  const given = (name: string) => query.get(name) ?? undefined;
  if (discovery) {
    const url = resolveRedirectUrl(project, 'discovery', given('discovery_redirect_url'));
    if (!url.ok) return fail('invalid_redirect_url', url.message);
    destinations = { discovery: url.url };
  } else {
    const id = given('organization_id');
    const slug = given('slug');
    organization = id
      ? await organizationById(ctx.db, project.id, id)
      : slug
        ? await organizationBySlug(ctx.db, project.id, slug.toLowerCase())
        : null;
    if (!organization) return organizationMissing();
    if (!allowsAuthMethod(organization, `${provider}_oauth`)) {
      return fail(
        'auth_method_not_allowed',
        `This organization does not allow ${provider} sign-in.`,
      );
    }
    const login = resolveRedirectUrl(project, 'login', given('login_redirect_url'));
    if (!login.ok) return fail('invalid_redirect_url', login.message);
    const signup = resolveRedirectUrl(project, 'signup', given('signup_redirect_url'));
    if (!signup.ok) return fail('invalid_redirect_url', signup.message);
    destinations = { login: login.url, signup: signup.url };
  }
  const challenge = given('pkce_code_challenge');
  if (project.pkceRequired.oauth && !challenge) return pkceRequired();
  if (challenge !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return fail('invalid_request', 'The pkce_code_challenge must be a base64url SHA-256 digest.');
  }
  const config = await providerConfig(ctx, project, provider);
  if (isFailure(config)) return config;

  const scopes = [
    ...new Set([...BASE_SCOPES, ...(given('custom_scopes') ?? '').split(/[\s+]+/).filter(Boolean)]),
  ];
  const state = newToken();
  const nonce = newToken();
  const verifier = oidc.randomPKCECodeVerifier();
  const parameters: Record<string, string> = {};
  for (const [key, value] of query) {
    const name = key.startsWith('provider_') ? key.slice('provider_'.length) : '';
    if (name !== '' && !RESERVED.has(name)) parameters[name] = value;
  }
  const location = oidc.buildAuthorizationUrl(config, {
    ...parameters,
    redirect_uri: redirectUri(ctx, provider),
    scope: scopes.join(' '),
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const now = ctx.now();
  const request: OAuthRequestsTable = {
    id: randomUUID(),
    project_id: project.id,
    provider,
    organization_id: organization?.organization_id ?? null,
    state_hash: hashToken(state),
    browser_hash: hashToken(browser),
    nonce,
    code_verifier_encrypted: ctx.box.seal(verifier),
    pkce_challenge: challenge ?? null,
    redirect_urls: JSON.stringify(destinations),
    scopes: scopes.join(' '),
    created_at: isoAt(now),
    expires_at: isoAt(now + FEDERATED_TOKEN_MINUTES * 60_000),
    used_at: null,
  };
  await insertOAuthRequest(ctx.db, request);
  return { location: location.href };
}

/** What the provider said about the person, and its tokens. */
export interface ProviderIdentity {
  email: string;
  name: string;
  /** Google's hosted domain (`hd`), if any. */
  hostedDomain: string | null;
  emailVerified: boolean;
  values: OAuthProviderValues;
}

/**
 * The rule for a verified address. Google: `email_verified` is true. Microsoft does not vouch
 * for addresses in general, so its `email` counts only when `email_verified` is true or, signing
 * in to an organization, when the address's domain is one the organization lists.
 */
function verified(
  provider: OAuthProviderName,
  identity: ProviderIdentity,
  organization: Organization | null,
): boolean {
  if (identity.emailVerified) return true;
  return (
    provider === 'microsoft' &&
    organization !== null &&
    organization.email_allowed_domains.includes(domainOf(identity.email))
  );
}

/** An error's message, with its cause's when openid-client wraps one (it names the check). */
function reasonOf(thrown: unknown): string {
  if (!(thrown instanceof Error)) return 'unknown error';
  const cause = thrown.cause instanceof Error ? thrown.cause.message : '';
  return cause && cause !== thrown.message ? `${thrown.message} (${cause})` : thrown.message;
}

/** The exchanged tokens and the ID token's verified claims. */
interface Exchanged {
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  idClaims: (Record<string, unknown> & { sub: string; raw?: string }) | undefined;
}

/** The raw ID token kept with claims checked outside openid-client. */
const idToken = (claims: { raw?: string }) => claims.raw ?? '';

/**
 * Exchanges the code with our PKCE verifier and checks the ID token. openid-client checks it for
 * single-issuer providers; for a multi-tenant issuer (Microsoft's `common`), the ID token is set
 * aside and checked against the issuer of the tenant it names.
 */
async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { pkceCodeVerifier: string; expectedState: string; expectedNonce: string },
): Promise<Exchanged> {
  if (!isMultiTenant(config)) {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      ...checks,
      idTokenExpected: true,
    });
    return { tokens, idClaims: tokens.claims() };
  }
  let raw: string | undefined;
  const secret = String(config.clientMetadata().client_secret ?? '');
  const insecure = config.serverMetadata().issuer.startsWith('http:');
  const copy = withIdTokenSetAside(config, secret, insecure, (token) => (raw = token));
  const { expectedNonce: nonce, ...rest } = checks;
  // An issuer named in the authorization response (RFC 9207) is a tenant's, which openid-client
  // would compare with the template: it must instead be the ID token's own issuer.
  const responseIssuer = callbackUrl.searchParams.get('iss');
  const response = new URL(callbackUrl);
  response.searchParams.delete('iss');
  const tokens = await oidc.authorizationCodeGrant(copy, response, rest);
  if (raw === undefined) return { tokens, idClaims: undefined };
  const payload = await verifyTenantIdToken(config, raw, nonce);
  if (responseIssuer !== null && responseIssuer !== payload.iss) {
    throw new Error('the authorization response and the ID token name different issuers');
  }
  return { tokens, idClaims: { ...payload, sub: String(payload.sub ?? ''), raw } };
}

/**
 * The callback (§8): claims the request by its state (once), exchanges the code with our PKCE
 * verifier and lets openid-client check the ID token (signature against the provider's JWKS,
 * `iss`, `aud`, `exp`, `iat`, nonce); then signs the person in to the organization, or hands
 * discovery the verified address.
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

  let identity: ProviderIdentity;
  try {
    const callbackUrl = new URL(redirectUri(ctx, provider));
    callbackUrl.search = query.toString();
    const { tokens, idClaims } = await exchangeCode(config, callbackUrl, {
      pkceCodeVerifier: ctx.box.open(request.code_verifier_encrypted),
      expectedState: state,
      expectedNonce: request.nonce,
    });
    if (!idClaims) return fail('invalid_oidc_response', 'The provider sent no ID token.');
    // Providers that keep profile claims out of the ID token answer them at userinfo.
    const claims: Record<string, unknown> =
      typeof idClaims.email === 'string'
        ? idClaims
        : {
            ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)),
            ...idClaims,
          };
    const email = typeof claims.email === 'string' ? claims.email : '';
    if (email === '') return noEmail();
    const expiresIn = tokens.expiresIn();
    identity = {
      email: normalizeEmail(email),
      name: typeof claims.name === 'string' ? claims.name : '',
      hostedDomain: typeof claims.hd === 'string' ? claims.hd.toLowerCase() : null,
      emailVerified: claims.email_verified === true,
      values: {
        access_token: tokens.access_token,
        id_token: tokens.id_token ?? idToken(idClaims),
        refresh_token: tokens.refresh_token ?? '',
        scopes: (tokens.scope ?? request.scopes).split(' ').filter(Boolean),
        expires_at: expiresIn === undefined ? '' : isoAt(now + expiresIn * 1000),
      },
    };
  } catch (thrown) {
    return fail('invalid_oidc_response', `The provider's answer was refused: ${reasonOf(thrown)}`);
  }

  const destinations = JSON.parse(request.redirect_urls) as Destinations;
  return allOrNothing(ctx.db, async (trx) => {
    if ('discovery' in destinations) {
      if (!verified(provider, identity, null)) return emailNotVerified();
      const token = await issueToken(ctx, trx, project, provider, identity, null, request, now);
      return { location: withToken(destinations.discovery, 'discovery_oauth', token) };
    }
    const org = request.organization_id
      ? await organizationById(trx, project.id, request.organization_id)
      : null;
    if (!org) return organizationGone();
    if (!verified(provider, identity, org)) return emailNotVerified();
    const joined = await memberFor(trx, project, org, provider, identity, now);
    if (isFailure(joined)) return joined;
    const token = await issueToken(
      ctx,
      trx,
      project,
      provider,
      identity,
      joined.member,
      request,
      now,
    );
    const url = joined.created ? destinations.signup : destinations.login;
    return { location: withToken(url, 'oauth', token) };
  });
}

/**
 * The member this person is in the organization: an existing one (activated if invited or
 * pending), or a new one when the organization's e-mail JIT rules admit the address. For Google,
 * an organization that admits by domain also needs the account's hosted domain (`hd`) to be
 * that domain, so a personal account with a company address does not join.
 */
export async function memberFor(
  db: Db,
  project: Project,
  org: Organization,
  provider: OAuthProviderName,
  identity: ProviderIdentity,
  now: number,
): Promise<{ member: Member; created: boolean } | Failure> {
  const existing = await memberByEmail(db, org.organization_id, identity.email);
  if (existing?.status === 'deleted') return memberRemoved();
  if (existing) {
    return {
      member: await activateMember(db, existing, now),
      created: existing.status !== 'active',
    };
  }
  const decision = jitDecision(org, identity.email);
  if (decision !== 'allowed') {
    return fail(decision, `${identity.email} may not join ${org.organization_name} this way.`);
  }
  if (provider === 'google' && identity.hostedDomain !== domainOf(identity.email)) {
    return fail(
      'invalid_email_for_jit_provisioning',
      `${identity.email} is not a ${domainOf(identity.email)} Google Workspace account.`,
    );
  }
  const member = await createMember(
    db,
    project.id,
    project.environment,
    org.organization_id,
    { email_address: identity.email, name: identity.name, status: 'active', emailVerified: true },
    now,
  );
  if (member === 'email_taken') {
    return fail('invalid_request', 'The member was created by another sign-in; try again.');
  }
  return { member, created: true };
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
): Promise<(AuthOutcome & { provider_values: OAuthProviderValues }) | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const token = await redeemLinkToken(
      trx,
      project.id,
      'oauth',
      input.oauth_token,
      input.pkce_code_verifier,
      now,
    );
    if (token === 'pkce_mismatch') return pkceMismatch();
    if (token === 'not_found' || !token.organization_id || !token.details) {
      return oauthTokenNotFound();
    }
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
        intermediateSessionToken: input.intermediate_session_token,
      },
      now,
    );
    if (isFailure(outcome)) return outcome;
    const values = JSON.parse(ctx.box.open(details.provider_values)) as OAuthProviderValues;
    return { ...outcome, provider_values: values };
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
    const token = await redeemLinkToken(
      trx,
      project.id,
      'discovery_oauth',
      input.discovery_oauth_token,
      input.pkce_code_verifier,
      now,
    );
    if (token === 'pkce_mismatch') return pkceMismatch();
    if (token === 'not_found' || !token.details) return oauthTokenNotFound();
    const details = JSON.parse(token.details) as TokenDetails;
    const factors = [oauthFactor(details.provider, token.email, now)];
    return startDiscovery(trx, project, token.email, factors, now);
  });
}
