/**
 * What an OIDC connection asks its provider for and how it reads the answer: the scopes of its
 * authorization requests, and the member fields its attribute mapping reads from the claims. The
 * sign-in and the test sign-in read claims through the same function, so a test shows exactly
 * what a sign-in would do.
 */
import { DEFAULT_OIDC_SCOPES } from '@gatehouse/protocol';
import { stringClaim } from '../../auth/federated/claims.js';
import type { OidcSettings } from './connections.js';

/**
 * `custom_scopes` as stored: one space between scopes, each once, `openid` first (without it the
 * provider sends no ID token); `''` when none are given, which asks for the default scopes. The
 * provider's SDK writes the spaces as `%20`, which is read as a space.
 *
 * @example
 * normalizeScopes('email%20groups email'); // 'openid email groups'
 */
export function normalizeScopes(text: string): string {
  const scopes = text.split(/\s+|%20/).filter((scope) => scope !== '');
  if (scopes.length === 0) return '';
  return [...new Set(['openid', ...scopes])].join(' ');
}

/** The scopes of the connection's authorization requests, a test's too. */
export function scopesOf(settings: Pick<OidcSettings, 'custom_scopes'>): string[] {
  return (settings.custom_scopes || DEFAULT_OIDC_SCOPES).split(' ');
}

/** The member fields a provider's claims give under a connection's attribute mapping. */
interface MappedClaims {
  email: string;
  firstName: string;
  lastName: string;
  /** The mapped first and last names, else the `name` claim. */
  name: string;
  groups: string[];
}

/**
 * Reads the mapped claims. A claim that is not a string reads as `''`; the groups claim may be
 * an array (its strings are kept) or one string, as some providers send a single group.
 *
 * @example
 * mappedClaims(settings, { email: 'ada@acme.test', roles: ['it'] }).groups; // ['it'] when groups maps to roles
 */
export function mappedClaims(
  settings: Pick<OidcSettings, 'attribute_mapping'>,
  claims: Record<string, unknown>,
): MappedClaims {
  const mapping = settings.attribute_mapping;
  const read = (claim: string) => (claim === '' ? '' : stringClaim(claims, claim));
  const firstName = read(mapping.first_name);
  const lastName = read(mapping.last_name);
  const mappedName = [firstName, lastName].filter((part) => part !== '').join(' ');
  const raw = mapping.groups === '' ? undefined : claims[mapping.groups];
  const groups = Array.isArray(raw)
    ? raw.filter((g): g is string => typeof g === 'string')
    : typeof raw === 'string' && raw !== ''
      ? [raw]
      : [];
  return {
    email: read(mapping.email),
    firstName,
    lastName,
    name: mappedName !== '' ? mappedName : stringClaim(claims, 'name'),
    groups: [...new Set(groups)],
  };
}
