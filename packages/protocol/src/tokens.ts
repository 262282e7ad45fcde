/** Redirect token types, id kinds and the PKCE namespaces. */

/** `stytch_token_type` values carried by redirects (docs/protocol.md §8). */
export const TOKEN_TYPES = [
  'multi_tenant_magic_links',
  'discovery',
  'multi_tenant_passwords',
  'sso',
  'oauth',
  'discovery_oauth',
] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** The query parameter names of a redirect. */
export const TOKEN_PARAM = 'token';
export const TOKEN_TYPE_PARAM = 'stytch_token_type';

/** Token types the widget exchanges on page load (all but the password reset type). */
export const AUTO_AUTHENTICATED_TOKEN_TYPES: readonly TokenType[] = [
  'discovery',
  'discovery_oauth',
  'oauth',
  'sso',
  'multi_tenant_magic_links',
];

export type Environment = 'test' | 'live';

/** Kinds of prefixed ids: `{kind}-{env}-{uuid}`. */
export type IdKind =
  | 'public-token'
  | 'organization'
  | 'member'
  | 'member-session'
  | 'saml-connection'
  | 'oidc-connection'
  | 'saml-certificate'
  | 'member-password'
  | 'member-totp'
  | 'member-email'
  | 'request-id'
  | 'project'
  | 'secret'
  | 'email-domain';

/** PKCE namespaces kept by the client (docs/protocol.md §10). */
export type PkceNamespace = 'magic_links' | 'passwords' | 'oauth' | 'sso';

/** The environment an id or public token belongs to, or null if it carries none. */
export function environmentOf(id: string): Environment | null {
  if (id.includes('-test-')) return 'test';
  if (id.includes('-live-')) return 'live';
  return null;
}
