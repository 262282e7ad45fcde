/**
 * ID tokens that openid-client cannot check by itself: One Tap credentials (no code exchange) and
 * the tokens of multi-tenant issuers such as Microsoft's `common` endpoints, whose discovery
 * document names the issuer `…/{tenantid}/v2.0` and whose tokens each name their own tenant.
 * Checked with jose against the provider's JWKS.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';

/** How far the provider's clock may be from ours. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** The placeholder of a multi-tenant issuer. */
const TENANT_PLACEHOLDER = '{tenantid}';

/** A tenant id as Microsoft writes them (a GUID), or any plain name a private deployment uses. */
const TENANT_ID = /^[A-Za-z0-9-]{1,64}$/;

// Key sets by JWKS URL, shared by the projects that use the same provider; jose refreshes them.
const keySets = new Map<string, JWTVerifyGetKey>();

/** The provider's signing keys, fetched on demand and cached by jose. */
export function keySetOf(jwksUri: string): JWTVerifyGetKey {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri));
    keySets.set(jwksUri, keys);
  }
  return keys;
}

/** Whether the discovered issuer is a multi-tenant template. */
export function isMultiTenant(config: oidc.Configuration): boolean {
  return config.serverMetadata().issuer.includes(TENANT_PLACEHOLDER);
}

/**
 * Verifies an ID token of a multi-tenant issuer: signature, `aud`, `exp`, `iat` and `nonce`, and
 * `iss` equal to the template with the token's own `tid` filled in.
 *
 * @throws when any check fails, with the reason.
 */
export async function verifyTenantIdToken(
  config: oidc.Configuration,
  idToken: string,
  nonce: string,
): Promise<JWTPayload> {
  const metadata = config.serverMetadata();
  if (!metadata.jwks_uri) throw new Error('the provider publishes no JWKS');
  const { payload } = await jwtVerify(idToken, keySetOf(metadata.jwks_uri), {
    audience: config.clientMetadata().client_id,
    requiredClaims: ['exp', 'iat', 'iss', 'tid'],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  });
  const tenant = payload.tid;
  if (typeof tenant !== 'string' || !TENANT_ID.test(tenant)) {
    throw new Error('the ID token names no valid tenant (tid)');
  }
  if (payload.iss !== metadata.issuer.replace(TENANT_PLACEHOLDER, tenant)) {
    throw new Error(`the ID token's issuer is not the issuer of its tenant ${tenant}`);
  }
  if (payload.nonce !== nonce) throw new Error('the ID token does not carry our nonce');
  return payload;
}

/**
 * A copy of the configuration whose token responses reach openid-client without their ID token,
 * which is handed to `keep` instead: openid-client checks the exchange itself (state, PKCE, the
 * token response), and the ID token is checked by {@link verifyTenantIdToken}.
 */
export function withIdTokenSetAside(
  config: oidc.Configuration,
  clientSecret: string,
  insecure: boolean,
  keep: (idToken: string) => void,
): oidc.Configuration {
  // The metadata as data (without openid-client's helper methods); the caller checks the
  // authorization response's issuer against the ID token's.
  const metadata = JSON.parse(JSON.stringify(config.serverMetadata())) as oidc.ServerMetadata;
  const copy = new oidc.Configuration(
    { ...metadata, authorization_response_iss_parameter_supported: false },
    config.clientMetadata().client_id,
    config.clientMetadata(),
    oidc.ClientSecretBasic(clientSecret),
  );
  const tokenEndpoint = config.serverMetadata().token_endpoint;
  copy[oidc.customFetch] = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (url !== tokenEndpoint || !response.ok) return response;
    const body = (await response.json()) as Record<string, unknown>;
    if (typeof body.id_token === 'string') keep(body.id_token);
    delete body.id_token;
    return new Response(JSON.stringify(body), {
      status: response.status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  };
  if (insecure) oidc.allowInsecureRequests(copy);
  return copy;
}
