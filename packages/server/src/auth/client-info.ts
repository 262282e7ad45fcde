/**
 * The browser a request comes from (its IP address and user agent), recorded on the sessions it
 * starts so that members and admins can tell their sessions apart (docs/protocol.md §7.10). The
 * HTTP layer reads it off each browser call (`http/auth.ts`) and every sign-in path passes it
 * down to where the session is made; a host backend's call (secret key) passes {@link NO_CLIENT}.
 */

/** What a session records of the browser that started it. */
export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

/** The longest user agent kept: real ones are a few hundred characters. */
const USER_AGENT_MAX = 512;

/** No browser: the CLI, or a host backend's call, which is not the browser of the member. */
export const NO_CLIENT: ClientInfo = Object.freeze({ ipAddress: null, userAgent: null });

/**
 * The browser of a call, its user agent cut to a bounded length and empty values as null.
 *
 * @example
 * const client = clientInfo(request.ip, request.headers['user-agent']);
 */
export function clientInfo(ip: string | undefined, userAgent: string | undefined): ClientInfo {
  return { ipAddress: ip || null, userAgent: userAgent?.slice(0, USER_AGENT_MAX) || null };
}
