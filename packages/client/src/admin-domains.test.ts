// The domain calls of createAdminClient (docs/protocol.md §7.12): each goes to its endpoint of the
// table with the member's session; misuse is a usage error before any request.
import { DEFAULT_SESSION_COOKIE, SDK_PREFIX } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { PUBLIC_TOKEN, SESSION_TOKEN } from '@gatehouse/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdminClient } from './admin.js';
import type { AdminClient } from './admin-types.js';
import { GatehouseAPIError, GatehouseUsageError } from './errors.js';
import { apiError, installFakeApi, ok } from './test/fake-api.js';
import { cleanup, makeClient } from './test/harness.js';

afterEach(cleanup);

const answer = () => ok({ request_id: 'r', status_code: 200 });

const CASES = [
  {
    name: 'organization.domains.list',
    endpoint: ENDPOINTS.organizationDomains,
    path: '/b2b/organizations/me/domains',
    call: (c: AdminClient) => c.organization.domains.list(),
    body: undefined,
  },
  {
    name: 'organization.domains.add',
    endpoint: ENDPOINTS.organizationDomainAdd,
    path: '/b2b/organizations/me/domains',
    call: (c: AdminClient) => c.organization.domains.add({ domain: 'acme.com' }),
    body: { domain: 'acme.com' },
  },
  {
    name: 'organization.domains.delete',
    endpoint: ENDPOINTS.organizationDomainDelete,
    path: '/b2b/organizations/me/domains/email-domain-1',
    call: (c: AdminClient) => c.organization.domains.delete('email-domain-1'),
    body: undefined,
  },
  {
    name: 'organization.domains.verify',
    endpoint: ENDPOINTS.organizationDomainVerify,
    path: '/b2b/organizations/me/domains/email-domain-1/verify',
    call: (c: AdminClient) => c.organization.domains.verify('email-domain-1'),
    body: undefined,
  },
];

describe('domain calls', () => {
  it.each(CASES)('$name calls its endpoint with the session', async (c) => {
    const api = installFakeApi({ [c.path]: answer });
    const admin = createAdminClient(makeClient());
    document.cookie = `${DEFAULT_SESSION_COOKIE}=${SESSION_TOKEN}; path=/`;
    await c.call(admin);
    const [request] = api.calls();
    expect(request?.method).toBe(c.endpoint.method);
    const pattern = new RegExp(
      `^${c.endpoint.path.slice(SDK_PREFIX.length).replace(/:[a-z_]+/g, '[^/]+')}$`,
    );
    expect(request?.path).toMatch(pattern);
    expect(request?.path).toBe(c.path);
    expect(request?.body).toEqual(c.body);
    expect(request?.headers.Authorization).toBe(
      `Basic ${btoa(`${PUBLIC_TOKEN}:${SESSION_TOKEN}`)}`,
    );
  });

  it('rejects with the server error, such as 400 domain_token_mismatch', async () => {
    installFakeApi({
      '/b2b/organizations/me/domains/email-domain-1/verify': () =>
        apiError(400, 'domain_token_mismatch', 'The TXT record does not hold the token.'),
    });
    const error = await createAdminClient(makeClient())
      .organization.domains.verify('email-domain-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect((error as GatehouseAPIError).error_type).toBe('domain_token_mismatch');
  });

  it('escapes the id into one path segment', async () => {
    const api = installFakeApi({ '/b2b/organizations/me/domains/a%2F..%2Fb': answer });
    await createAdminClient(makeClient()).organization.domains.delete('a/../b');
    expect(api.calls()[0]?.path).toBe('/b2b/organizations/me/domains/a%2F..%2Fb');
  });

  it('refuses misuse before any request', async () => {
    const api = installFakeApi();
    const domains = createAdminClient(makeClient()).organization.domains;
    const misuses = [
      () => domains.add({} as never),
      () => domains.add({ domain: 7 } as never),
      () => domains.add({ domain: '  ' }),
      () => domains.add(null as never),
      () => domains.delete(''),
      () => domains.verify(undefined as never),
      () => domains.verify({} as never),
    ];
    for (const misuse of misuses) {
      await expect(misuse()).rejects.toBeInstanceOf(GatehouseUsageError);
    }
    expect(api.calls()).toEqual([]);
  });
});
