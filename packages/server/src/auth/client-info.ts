/**
 * The browser a request comes from (its IP address and user agent), recorded on the sessions it
 * starts so that members and admins can tell their sessions apart (docs/protocol.md §7.10). The
 * HTTP layer sets it around each browser call's handler; every sign-in path then records it
 * where the session is made, without each product passing it down.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What a session records of the browser that started it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The longest user agent kept: real ones are a few hundred characters. */
const USER_AGENT_MAX = 512;

const current = new AsyncLocalStorage<ClientInfo>();

/**
 * Runs `work` with `client` as the browser of the sessions it starts.
 *
 * @example
 * await withClient({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null }, run);
 */
export function withClient<T>(client: ClientInfo, work: () => T): T {
  const userAgent = client.userAgent?.slice(0, USER_AGENT_MAX) || null;
  return current.run({ ip: client.ip || null, userAgent }, work);
}

/** The browser of the current call, or nulls outside one (the CLI, a host backend's call). */
export function currentClient(): ClientInfo {
  return current.getStore() ?? { ip: null, userAgent: null };
}
