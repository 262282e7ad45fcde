// The SSO calls of createAdminClient (docs/protocol.md §7.10): each goes to its endpoint of the
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
const connection_id = 'saml-connection-1';

const CASES = [
  {
    name: 'sso.getConnections',
    endpoint: ENDPOINTS.sdkSsoList,
    path: '/b2b/sso',
    call: (c: AdminClient) => c.sso.getConnections(),
    body: undefined,
  },
  {
    name: 'sso.deleteConnection',
    endpoint: ENDPOINTS.sdkSsoDelete,
    path: '/b2b/sso/saml-connection-1',
    call: (c: AdminClient) => c.sso.deleteConnection(connection_id),
    body: undefined,
  },
  {
    name: 'sso.saml.createConnection',
    endpoint: ENDPOINTS.sdkSsoCreateSaml,
    path: '/b2b/sso/saml',
    call: (c: AdminClient) => c.sso.saml.createConnection({ display_name: 'Okta' }),
    body: { display_name: 'Okta' },
  },
  {
    name: 'sso.saml.updateConnection',
    endpoint: ENDPOINTS.sdkSsoUpdateSaml,
    path: '/b2b/sso/saml/saml-connection-1',
    call: (c: AdminClient) =>
      c.sso.saml.updateConnection({ connection_id, attribute_mapping: { email: 'mail' } }),
    body: { attribute_mapping: { email: 'mail' } },
  },
  {
    name: 'sso.saml.updateConnectionByMetadata',
    endpoint: ENDPOINTS.sdkSsoUpdateSamlByMetadata,
    path: '/b2b/sso/saml/saml-connection-1/url',
    call: (c: AdminClient) =>
      c.sso.saml.updateConnectionByMetadata({
        connection_id,
        metadata_url: 'https://idp.acme.test/metadata',
      }),
    body: { metadata_url: 'https://idp.acme.test/metadata' },
  },
  {
    name: 'sso.saml.deleteVerificationCertificate',
    endpoint: ENDPOINTS.sdkSsoDeleteSamlCertificate,
    path: '/b2b/sso/saml/saml-connection-1/verification_certificates/cert-1',
    call: (c: AdminClient) =>
      c.sso.saml.deleteVerificationCertificate({ connection_id, certificate_id: 'cert-1' }),
    body: undefined,
  },
  {
    name: 'sso.saml.testConnection',
    endpoint: ENDPOINTS.sdkSsoTestSaml,
    path: '/b2b/sso/saml/saml-connection-1/test',
    call: (c: AdminClient) => c.sso.saml.testConnection({ connection_id }),
    body: {},
  },
  {
    name: 'sso.saml.getTest',
    endpoint: ENDPOINTS.sdkSsoTestSamlResult,
    path: '/b2b/sso/saml/saml-connection-1/test/_test-1',
    call: (c: AdminClient) => c.sso.saml.getTest({ connection_id, test_id: '_test-1' }),
    body: undefined,
  },
  {
    name: 'sso.oidc.createConnection',
    endpoint: ENDPOINTS.sdkSsoCreateOidc,
    path: '/b2b/sso/oidc',
    call: (c: AdminClient) => c.sso.oidc.createConnection({ display_name: 'Entra' }),
    body: { display_name: 'Entra' },
  },
  {
    name: 'sso.oidc.updateConnection',
    endpoint: ENDPOINTS.sdkSsoUpdateOidc,
    path: '/b2b/sso/oidc/oidc-connection-1',
    call: (c: AdminClient) =>
      c.sso.oidc.updateConnection({
        connection_id: 'oidc-connection-1',
        custom_scopes: 'openid groups',
        attribute_mapping: { groups: 'roles' },
      }),
    body: { custom_scopes: 'openid groups', attribute_mapping: { groups: 'roles' } },
  },
  {
    name: 'sso.oidc.testConnection',
    endpoint: ENDPOINTS.sdkSsoTestOidc,
    path: '/b2b/sso/oidc/oidc-connection-1/test',
    call: (c: AdminClient) => c.sso.oidc.testConnection({ connection_id: 'oidc-connection-1' }),
    body: {},
  },
  {
    name: 'sso.oidc.getTest',
    endpoint: ENDPOINTS.sdkSsoTestOidcResult,
    path: '/b2b/sso/oidc/oidc-connection-1/test/_test-1',
    call: (c: AdminClient) =>
      c.sso.oidc.getTest({ connection_id: 'oidc-connection-1', test_id: '_test-1' }),
    body: undefined,
  },
];

describe('SSO calls', () => {
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

  it('rejects with the server error, such as 404 sso_test_not_found', async () => {
    installFakeApi({
      '/b2b/sso/saml/saml-connection-1/test/_gone': () =>
        apiError(404, 'sso_test_not_found', 'This connection has no test sign-in with this id.'),
    });
    const error = await createAdminClient(makeClient())
      .sso.saml.getTest({ connection_id, test_id: '_gone' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect((error as GatehouseAPIError).error_type).toBe('sso_test_not_found');
  });

  it('escapes ids into one path segment each', async () => {
    const path = '/b2b/sso/saml/a%2F..%2Fb/verification_certificates/c%3Fd';
    const api = installFakeApi({ [path]: answer });
    await createAdminClient(makeClient()).sso.saml.deleteVerificationCertificate({
      connection_id: 'a/../b',
      certificate_id: 'c?d',
    });
    expect(api.calls()[0]?.path).toBe(path);
  });

  it('refuses misuse before any request', async () => {
    const api = installFakeApi();
    const { saml, oidc } = createAdminClient(makeClient()).sso;
    const misuses = [
      () => saml.updateConnection(null as never),
      () => saml.updateConnection({ connection_id: '' }),
      () => saml.deleteVerificationCertificate({ connection_id, certificate_id: '' }),
      () => saml.deleteVerificationCertificate({ certificate_id: 'c' } as never),
      () => saml.testConnection({} as never),
      () => saml.testConnection(undefined as never),
      () => saml.getTest({ connection_id } as never),
      () => oidc.updateConnection({ connection_id: '' }),
      () => oidc.updateConnection(null as never),
      () => oidc.testConnection({} as never),
      () => oidc.getTest({ connection_id, test_id: '' }),
    ];
    for (const misuse of misuses) {
      await expect(misuse()).rejects.toBeInstanceOf(GatehouseUsageError);
    }
    expect(api.calls()).toEqual([]);
  });
});
