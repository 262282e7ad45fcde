/** Reading the page URL: redirect tokens and the organization slug; web-mail links. */
import {
  AUTO_AUTHENTICATED_TOKEN_TYPES,
  TOKEN_PARAM,
  TOKEN_TYPE_PARAM,
  type TokenType,
} from '@gatehouse/protocol';

/** A token type redeemed on load: every type but the password reset's (docs/protocol.md §8). */
export type AutoAuthenticatedTokenType = Exclude<TokenType, 'multi_tenant_passwords'>;

/** A redirect token found in the page URL. */
export interface UrlToken {
  type: AutoAuthenticatedTokenType;
  token: string;
}

function isAutoAuthenticated(type: string | null): type is AutoAuthenticatedTokenType {
  return (AUTO_AUTHENTICATED_TOKEN_TYPES as readonly (string | null)[]).includes(type);
}

/**
 * The redirect token in a query string, when it is one the widget authenticates on load. A
 * password reset token is left for the reset screen.
 */
export function readUrlToken(search: string): UrlToken | null {
  const params = new URLSearchParams(search);
  const token = params.get(TOKEN_PARAM);
  const type = params.get(TOKEN_TYPE_PARAM);
  if (!token || !isAutoAuthenticated(type)) return null;
  return { type, token };
}

/**
 * A token the password reset form redeems: a reset link's, a discovery reset link's (answered
 * with the organizations of the address), or a login link sent for a reset.
 */
export type ResetTokenType = Extract<
  TokenType,
  'multi_tenant_passwords' | 'discovery' | 'multi_tenant_magic_links'
>;

/** A redirect token found on the password reset page. */
export interface ResetToken {
  type: ResetTokenType;
  token: string;
}

/**
 * The token of the password reset page (docs/protocol.md §8): a reset link, a discovery reset link
 * (`discovery`: the reset page is where the server sends those), or the login link sent to a
 * member who has no password yet. Anything else is not the reset form's to redeem.
 */
export function readResetToken(search: string): ResetToken | null {
  const params = new URLSearchParams(search);
  const token = params.get(TOKEN_PARAM);
  const type = params.get(TOKEN_TYPE_PARAM);
  if (!token) return null;
  if (
    type !== 'multi_tenant_passwords' &&
    type !== 'discovery' &&
    type !== 'multi_tenant_magic_links'
  )
    return null;
  return { type, token };
}

/** The page URL without its query: path and fragment kept (used once a token is redeemed). */
export function urlWithoutQuery(location: { pathname: string; hash: string }): string {
  return location.pathname + location.hash;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The scheme and host of an absolute URL pattern (`https://app.example.com`), or ''. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i;

/**
 * The organization slug in a page URL, by the bootstrap slug pattern (`{{slug}}` becomes `(.+)`,
 * matched unanchored against the URL without its query). The rest of the pattern is literal text.
 * When the slug sits in the path, only the path is compared: the same page reached by another
 * host name (`127.0.0.1` for `localhost`, a proxy, a LAN address) finds its organization too. A
 * slug in the host name (`https://{{slug}}.app.example.com`) is matched on the whole URL.
 *
 * @example
 * slugFromUrl('https://app.example.com/{{slug}}/login', 'https://app.example.com/acme/login'); // 'acme'
 */
export function slugFromUrl(pattern: string | null, pageUrl: string): string | null {
  if (!pattern?.includes('{{slug}}')) return null;
  const origin = ORIGIN.exec(pattern)?.[0] ?? '';
  const [target, text] =
    origin !== '' && !origin.includes('{{slug}}')
      ? [pageUrl.replace(ORIGIN, ''), pattern.slice(origin.length)]
      : [pageUrl, pattern];
  const source = text.split('{{slug}}').map(escapeRegExp).join('(.+)');
  const match = new RegExp(source).exec(target);
  return match?.[1] ?? null;
}

/** A web-mail service the EmailConfirmation screen links to. */
export interface WebmailLink {
  provider: 'gmail' | 'outlook' | 'yahoo';
  href: string;
}

/**
 * Links that open the big web-mail services, searching for mail from the sender's domain when it
 * is known.
 */
export function webmailLinks(senderDomain: string | null): WebmailLink[] {
  if (!senderDomain) {
    return [
      { provider: 'gmail', href: 'https://mail.google.com/mail/u/0/#inbox' },
      { provider: 'outlook', href: 'https://outlook.live.com/mail/0/inbox' },
      { provider: 'yahoo', href: 'https://mail.yahoo.com/d/folders/1' },
    ];
  }
  const from = encodeURIComponent(`from:${senderDomain}`);
  return [
    { provider: 'gmail', href: `https://mail.google.com/mail/u/0/#search/${from}+in%3Aanywhere` },
    { provider: 'outlook', href: `https://outlook.live.com/mail/0/search?q=${from}` },
    // Yahoo decodes the keyword twice, hence the double encoding.
    {
      provider: 'yahoo',
      href: `https://mail.yahoo.com/d/search/keyword=${encodeURIComponent(from)}`,
    },
  ];
}
