/**
 * Reading an OpenID provider's claims the same way in every federated sign-in: the ID token's
 * verified claims first, userinfo only for what the ID token leaves out, and the claims that
 * decide trust read into {@link FederatedClaims}.
 */
import type { FederatedClaims, OAuthProviderKind } from './trust.js';

/**
 * The person's claims: the ID token's, completed by userinfo. The ID token is signed and checked
 * (issuer, audience, nonce), so on any claim both name, the ID token wins.
 *
 * @example
 * mergeClaims({ sub: '1', email: 'a@b.co' }, { email: 'x@y.z', name: 'Ada' }); // email a@b.co, name Ada
 */
export function mergeClaims(
  idToken: Record<string, unknown>,
  userinfo: Record<string, unknown> | null,
): Record<string, unknown> {
  return { ...(userinfo ?? {}), ...idToken };
}

/** A claim as a string, or `''`. */
export function stringClaim(claims: Record<string, unknown>, name: string): string {
  const value = claims[name];
  return typeof value === 'string' ? value : '';
}

/** Microsoft writes boolean optional claims as `true` or, in some token versions, `"1"`/`1`. */
function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** The display name: `name`, else the given and family names. */
export function displayName(claims: Record<string, unknown>): string {
  const name = stringClaim(claims, 'name');
  if (name !== '') return name;
  return [stringClaim(claims, 'given_name'), stringClaim(claims, 'family_name')]
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * What an OAuth provider's claims say for trust: issuer and subject, the address, and the claims
 * by which the provider vouches for it.
 */
export function federatedClaims(
  provider: OAuthProviderKind,
  claims: Record<string, unknown>,
  email: string,
): FederatedClaims {
  const hd = stringClaim(claims, 'hd').toLowerCase();
  const tid = stringClaim(claims, 'tid').toLowerCase();
  const picture = stringClaim(claims, 'picture');
  const locale = stringClaim(claims, 'locale');
  return {
    provider,
    issuer: stringClaim(claims, 'iss'),
    subject: stringClaim(claims, 'sub'),
    email,
    emailVerified: claims.email_verified === true,
    hostedDomain: provider === 'google' && hd !== '' ? hd : null,
    tenantId: provider === 'microsoft' && tid !== '' ? tid : null,
    domainVerified: provider === 'microsoft' && flag(claims.xms_edov),
    ...(picture === '' ? {} : { picture }),
    ...(locale === '' ? {} : { locale }),
  };
}

/** Claims about the token rather than the person, left out of a member's `sso_attributes`. */
const TOKEN_CLAIMS = new Set([
  'iss',
  'aud',
  'exp',
  'iat',
  'nbf',
  'nonce',
  'at_hash',
  'c_hash',
  'azp',
  'auth_time',
  'jti',
  'sid',
]);

/** The claims that describe the person. */
export function personClaims(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).filter(([name]) => !TOKEN_CLAIMS.has(name)));
}
