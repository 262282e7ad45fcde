/**
 * Binding a federated sign-in to the browser that started it (login CSRF, RFC 9700 §4.7): the
 * start sets a random value in an HttpOnly cookie and stores its hash with the request; the
 * return (OAuth or OIDC callback, SAML ACS) must come with the same cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newToken } from '../crypto/random.js';

/** One kind of binding: its cookie's name and the paths the cookie is sent to. */
export interface BrowserBindingCookie {
  name: string;
  /** The path prefix of the starts and returns, e.g. `/v1/b2b/public/oauth/`. */
  path: string;
  /**
   * Whether the return is a cross-site POST (the SAML ACS): such a cookie must be
   * `SameSite=None`, which browsers accept only with `Secure`, so over plain http (local
   * development, where the IdP is usually on the same site) it stays `Lax`.
   */
  crossSitePost: boolean;
}

/** As long as a started sign-in may return. */
const COOKIE_SECONDS = 10 * 60;
const BINDING = /^[A-Za-z0-9_-]{43}$/;

/** The OAuth (Google, Microsoft) binding: the provider returns with a top-level GET. */
export const OAUTH_BINDING: BrowserBindingCookie = {
  name: 'gatehouse_oauth_browser',
  path: '/v1/b2b/public/oauth/',
  crossSitePost: false,
};

/**
 * The SSO binding: the SAML ACS is a form POST from the IdP's site; OIDC returns with a GET. The
 * start (`/v1/public/sso/start`) and the returns (`/v1/sso/…`) share only `/v1/`.
 */
export const SSO_BINDING: BrowserBindingCookie = {
  name: 'gatehouse_sso_browser',
  path: '/v1/',
  crossSitePost: true,
};

/** This browser's binding, when it sent one that we could have issued. */
export function browserBinding(
  request: FastifyRequest,
  cookie: BrowserBindingCookie,
): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === cookie.name) {
      const value = part.slice(at + 1).trim();
      return BINDING.test(value) ? value : null;
    }
  }
  return null;
}

/** The binding to start with: the browser's own while it has sign-ins under way, else a new one. */
export function bindingToStart(request: FastifyRequest, cookie: BrowserBindingCookie): string {
  return browserBinding(request, cookie) ?? newToken();
}

/**
 * Sends the binding cookie: HttpOnly, `Secure` over https, `SameSite=Lax` (a top-level GET
 * return carries it) or, for a cross-site POST return over https, `SameSite=None`.
 */
export function setBrowserBinding(
  reply: FastifyReply,
  cookie: BrowserBindingCookie,
  value: string,
  secure: boolean,
): void {
  const sameSite = cookie.crossSitePost && secure ? 'None' : 'Lax';
  void reply.header(
    'set-cookie',
    `${cookie.name}=${value}; Path=${cookie.path}; Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=${sameSite}${secure ? '; Secure' : ''}`,
  );
}
