/** When the dev inbox may run and whom it answers: development only, loopback only. */
import { isIP } from 'node:net';
import type { Db } from '../../context.js';
import { hasLiveProject } from '../../tenancy/projects/store.js';

/**
 * What {@link isLocalRequest} reads of a request: the HTTP layer passes its request object, which
 * has this shape, and the service stays free of the framework (docs/architecture.md §3).
 */
export interface RequestOrigin {
  headers: { host?: string | undefined; [name: string]: string | string[] | undefined };
  /** The client address as the framework reports it. */
  ip: string;
  socket: { remoteAddress?: string | undefined };
}

/**
 * Refuses to start the dev inbox where it would show real people's sign-in links and codes:
 * behind an https public URL, or with a live project in the database. Throws with what to change.
 *
 * @example
 * if (config.devInbox) await assertDevInboxMayStart(db, config.publicUrl);
 */
export async function assertDevInboxMayStart(db: Db, publicUrl: string): Promise<void> {
  const off = 'Turn it off (unset GATEHOUSE_DEV_INBOX, devInbox: false) and configure SMTP_HOST.';
  if (publicUrl.toLowerCase().startsWith('https:')) {
    throw new Error(
      `The dev inbox shows every sign-in link and code, and the public URL ${publicUrl} is https, ` +
        `which means production. ${off}`,
    );
  }
  if (await hasLiveProject(db)) {
    throw new Error(
      `The dev inbox shows every sign-in link and code, and this database has a live project. ${off}`,
    );
  }
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** `localhost`, `*.localhost`, 127.x.x.x or `[::1]`, with or without a port. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = (
    host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')
  ).toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '[::1]') return true;
  return isIP(name) === 4 && name.startsWith('127.');
}

/**
 * Whether a request comes from this machine, for this machine. The socket must be loopback (so
 * no other host reaches the inbox), the request must not have passed a proxy (which would make a
 * remote visitor look local), and the `Host` header must be a loopback name: a page on another
 * site that rebinds its own DNS name to 127.0.0.1 still sends its own name, and is refused.
 *
 * @example
 * if (!isLocalRequest(request)) throw new ApiError('endpoint_not_found', '…');
 */
export function isLocalRequest(request: RequestOrigin): boolean {
  const headers = request.headers;
  if (headers.forwarded || headers['x-forwarded-for'] || headers['x-real-ip']) return false;
  return (
    isLoopbackAddress(request.socket.remoteAddress) &&
    isLoopbackAddress(request.ip) &&
    isLoopbackHost(headers.host)
  );
}
