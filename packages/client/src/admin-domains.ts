/**
 * The organization's e-mail domains for its admins (docs/protocol.md §7.12): listing, adding,
 * removing and verifying them by DNS with the signed-in member's session.
 */
import type { DomainDeleteResult, DomainResult, DomainsResult } from '@gatehouse/protocol';
import type { DomainAdminMethods } from './admin-types.js';
import { GatehouseUsageError } from './errors.js';
import { check } from './validate.js';

/** What the calls send through: the admin client's transport. */
interface DomainTransport {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: object): Promise<T>;
  send<T>(method: 'PUT' | 'DELETE', path: string, body?: object): Promise<T>;
}

const DOMAINS_PATH = '/b2b/organizations/me/domains';
const domainPath = (domainId: string) => `${DOMAINS_PATH}/${encodeURIComponent(domainId)}`;

function domainId(method: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new GatehouseUsageError(`${method}: domainId must be a non-empty string.`);
  }
  return value;
}

/**
 * The domain calls of `createAdminClient(client).organization.domains`.
 *
 * @example
 * const { domain } = await admin.organization.domains.add({ domain: 'acme.com' });
 * // publish domain.txt_record, then:
 * await admin.organization.domains.verify(domain.domain_id);
 */
export function createDomainAdminMethods(ctx: DomainTransport): DomainAdminMethods {
  return {
    list: () => ctx.get<DomainsResult>(DOMAINS_PATH),
    async add(args) {
      check('organization.domains.add', args, { domain: 'string' });
      if (args.domain.trim() === '') {
        throw new GatehouseUsageError('organization.domains.add: domain must not be empty.');
      }
      return ctx.post<DomainResult>(DOMAINS_PATH, args);
    },
    async delete(id) {
      const checked = domainId('organization.domains.delete', id);
      return ctx.send<DomainDeleteResult>('DELETE', domainPath(checked));
    },
    async verify(id) {
      const checked = domainId('organization.domains.verify', id);
      return ctx.post<DomainResult>(`${domainPath(checked)}/verify`);
    },
  };
}
