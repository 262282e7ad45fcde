/**
 * The one OpenID Connect client of federated sign-in, used by Google and Microsoft sign-in and by
 * OIDC SSO connections: discovery documents cached per provider setting, the authorization
 * request (our state, nonce and PKCE), and the code exchange with the ID token checked, including
 * the per-tenant issuers of multi-tenant providers (Microsoft's `common`), and one rule for
 * merging ID-token and userinfo claims.
 */
import * as oidc from 'openid-client';
import { newToken } from '../../crypto/random.js';
import { isFailure, type Failure } from '../../result.js';
import { mergeClaims } from './claims.js';
import { isMultiTenant, verifyTenantIdToken, withIdTokenSetAside } from './id-tokens.js';

/** How long a discovery document is kept, per process. */
const DISCOVERY_CACHE_MS = 10 * 60_000;

const configurations = new Map<
  string,
  { at: number; version: string; config: Promise<oidc.Configuration | Failure> }
>();

/**
 * A provider's configuration, read once per version of its settings (e.g. the row's
 * `updated_at`) and kept a few minutes. Concurrent sign-ins share one read; a failed read is not
 * kept, and a new version replaces the old one.
 *
 * @example
 * const config = await cachedConfiguration(`sso:${row.id}`, row.updated_at, () => discoverProvider(issuer, id, secret));
 */
export function cachedConfiguration(
  key: string,
  version: string,
  load: () => Promise<oidc.Configuration | Failure>,
): Promise<oidc.Configuration | Failure> {
  const now = Date.now();
  const cached = configurations.get(key);
  if (cached && cached.version === version && now - cached.at < DISCOVERY_CACHE_MS) {
    return cached.config;
  }
  const config = load().then((result) => {
    if (isFailure(result) && configurations.get(key)?.config === config) configurations.delete(key);
    return result;
  });
  configurations.set(key, { at: now, version, config });
  return config;
}

/** Forgets a provider's configuration (its settings changed). */
export function forgetConfiguration(key: string): void {
  configurations.delete(key);
}

/** What the start keeps to check the return: our state, nonce and PKCE verifier. */
export interface AuthorizationStart {
  location: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The provider's authorization URL with a fresh state, nonce and PKCE challenge (S256), and
 * any extra parameters (which may not override ours).
 */
export async function beginAuthorization(
  config: oidc.Configuration,
  input: { redirectUri: string; scopes: readonly string[]; parameters?: Record<string, string> },
): Promise<AuthorizationStart> {
  const state = newToken();
  const nonce = newToken();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const location = oidc.buildAuthorizationUrl(config, {
    ...input.parameters,
    redirect_uri: input.redirectUri,
    scope: input.scopes.join(' '),
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { location: location.href, state, nonce, codeVerifier };
}

/** The exchanged tokens, the raw ID token and the person's merged claims. */
export interface CompletedAuthorization {
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  /** The raw ID token. */
  idToken: string;
  /** The ID token's verified claims, completed by userinfo (see {@link mergeClaims}). */
  claims: Record<string, unknown>;
}

/**
 * Exchanges the code with our PKCE verifier and checks the ID token. openid-client checks it for
 * single-issuer providers; for a multi-tenant issuer, the ID token is set aside and checked
 * against the issuer of the tenant it names. Providers that keep profile claims out of the ID
 * token answer them at userinfo, which is then read too.
 *
 * @throws when the provider's answer fails a check, with the reason (see {@link reasonOf}).
 */
export async function completeAuthorization(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { pkceCodeVerifier: string; expectedState: string; expectedNonce: string },
): Promise<CompletedAuthorization | null> {
  const exchanged = await exchangeCode(config, callbackUrl, checks);
  if (!exchanged) return null;
  const { tokens, idClaims, idToken } = exchanged;
  const userinfo =
    typeof idClaims.email === 'string'
      ? null
      : await oidc.fetchUserInfo(config, tokens.access_token, String(idClaims.sub));
  return { tokens, idToken, claims: mergeClaims(idClaims, userinfo) };
}

async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { pkceCodeVerifier: string; expectedState: string; expectedNonce: string },
): Promise<{
  tokens: CompletedAuthorization['tokens'];
  idClaims: Record<string, unknown> & { sub: string };
  idToken: string;
} | null> {
  if (!isMultiTenant(config)) {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      ...checks,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    return claims ? { tokens, idClaims: claims, idToken: tokens.id_token ?? '' } : null;
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
  if (raw === undefined) return null;
  const payload = await verifyTenantIdToken(config, raw, nonce);
  if (responseIssuer !== null && responseIssuer !== payload.iss) {
    throw new Error('the authorization response and the ID token name different issuers');
  }
  return { tokens, idClaims: { ...payload, sub: String(payload.sub ?? '') }, idToken: raw };
}

/** An error's message, with its cause's when openid-client wraps one (it names the check). */
export function reasonOf(thrown: unknown): string {
  if (!(thrown instanceof Error)) return 'unknown error';
  const cause = thrown.cause instanceof Error ? thrown.cause.message : '';
  return cause && cause !== thrown.message ? `${thrown.message} (${cause})` : thrown.message;
}
