/** The project's security policy: which browser origins and which redirect URLs it accepts. */
import type { Project, RedirectKind } from './service.js';

/** Hosts that a test project always trusts, on any port (docs/protocol.md §2, §14). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

/** Whether a URL is on `localhost` or `127.0.0.1`, over http or https. */
export function isLoopback(url: URL): boolean {
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
  );
}

/**
 * Whether a page at `origin` may call the project's SDK API: listed origins always; loopback on
 * any port in the test environment; nothing else (an empty list in live allows none).
 *
 * @example
 * isOriginAllowed(project, 'http://localhost:5173'); // true for a test project
 */
export function isOriginAllowed(project: Project, origin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (project.environment === 'test' && isLoopback(parsed)) return true;
  return project.authorizedOrigins.includes(parsed.origin);
}

/** Why a redirect URL was refused, as a message for the caller. */
export type RedirectCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * Chooses the redirect URL of a flow: the given one if it is allow-listed for `kind` (same
 * origin and path as a listed URL; its own query is kept), else the project default for `kind`.
 * In the test environment any loopback URL is accepted.
 *
 * @example
 * const check = resolveRedirectUrl(project, 'login', body.login_redirect_url);
 */
export function resolveRedirectUrl(
  project: Project,
  kind: RedirectKind,
  given: string | undefined,
): RedirectCheck {
  const allowed = project.redirectUrls[kind] ?? [];
  if (given === undefined || given === '') {
    const fallback = allowed[0];
    return fallback
      ? { ok: true, url: fallback }
      : {
          ok: false,
          message: `No ${kind} redirect URL was given and the project has no default ${kind} redirect URL.`,
        };
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { ok: false, message: `The ${kind} redirect URL is not an absolute URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `The ${kind} redirect URL must use http or https.` };
  }
  if (project.environment === 'test' && isLoopback(url)) return { ok: true, url: given };
  const listed = allowed.some((entry) => {
    const candidate = new URL(entry);
    return candidate.origin === url.origin && candidate.pathname === url.pathname;
  });
  return listed
    ? { ok: true, url: given }
    : { ok: false, message: `${given} is not on the project's ${kind} redirect URL allow-list.` };
}

/**
 * Appends `stytch_token_type` and `token` to a redirect URL, keeping its query and fragment; an
 * e-mailed link also carries `locale`, the language it was written in, so that the page it
 * opens can speak that language.
 *
 * @example
 * withToken('https://app.example/auth#x', 'discovery', token);
 * withToken('https://app.example/auth', 'discovery', token, 'es'); // …&locale=es
 */
export function withToken(
  url: string,
  tokenType: string,
  token: string,
  locale?: string | null,
): string {
  const parsed = new URL(url);
  parsed.searchParams.set('stytch_token_type', tokenType);
  parsed.searchParams.set('token', token);
  if (locale) parsed.searchParams.set('locale', locale);
  return parsed.toString();
}
