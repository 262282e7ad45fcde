// Microsoft's multi-tenant sign-in against a stand-in with Microsoft's layout (oidc-provider under
// a tenant path, the `common` discovery document naming `…/{tenantid}/v2.0`): each ID token must
// come from the issuer of the tenant it names, and Microsoft addresses count as verified only
// under the documented rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { TestBrowser, signInAtIdp } from '../../test/sso.js';

const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const CLIENT = { clientId: 'gatehouse-microsoft', clientSecret: 'microsoft-client-secret-value' };

let h: Harness;
let microsoft: OidcIdp;
let callback: string;

beforeAll(async () => {
  [h, microsoft] = await Promise.all([startHarness(), startOidcIdp({ tenantId: TENANT })]);
  callback = `${h.url}/v1/b2b/public/oauth/microsoft/callback`;
  microsoft.addClient({ ...CLIENT, redirectUris: [callback] });
  // Microsoft vouches for no address: these count by the organization's domains only.
  microsoft.users.set('ada@acme.test', { password: 'pw-ada', emailVerified: false });
  microsoft.users.set('mallory@elsewhere.test', { password: 'pw-m', emailVerified: false });
  // A token whose tenant claim names another tenant than the issuer that signed it.
  microsoft.users.set('spoof@acme.test', {
    password: 'pw-spoof',
    emailVerified: false,
    claims: { tid: '00000000-0000-0000-0000-000000000001' },
  });
  expectOk(
    await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'microsoft' },
      body: {
        enabled: true,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
        issuer: microsoft.issuer,
      },
    }),
  );
  await h.admin.updateOrganization(h.project.project_id, h.org.organization_id, {
    email_allowed_domains: ['acme.test'],
    email_jit_provisioning: 'RESTRICTED',
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), microsoft?.close()]);
});

async function callbackFor(email: string, password: string, path = 'start') {
  const browser = new TestBrowser();
  const query = new URLSearchParams({ public_token: h.project.public_token });
  if (path === 'start') query.set('slug', h.org.organization_slug);
  const res = await browser.navigate(
    `${h.url}/v1/b2b/public/oauth/microsoft/${path}?${query.toString()}`,
  );
  expect(res.status).toBe(302);
  const { callback: back } = await signInAtIdp(res.location ?? '', callback, { email, password });
  if (!back) throw new Error('The provider did not return');
  return browser.navigate(back);
}

describe('Microsoft, multi-tenant', () => {
  it('reads the common discovery document, whose issuer names the tenant as a placeholder', () => {
    expect(microsoft.issuer).toMatch(/\/common\/v2\.0\/\.well-known\/openid-configuration$/);
    expect(microsoft.tokenIssuer).toMatch(new RegExp(`/${TENANT}/v2\\.0$`));
  });

  it('signs in an address of an organization domain, checked against its tenant issuer', async () => {
    const back = await callbackFor('ada@acme.test', 'pw-ada');
    expect(back.status).toBe(302);
    const token = new URL(back.location ?? '').searchParams.get('token') ?? '';
    const result = expectOk(
      await h.call(ENDPOINTS.oauthAuthenticate, {
        body: { oauth_token: token, session_duration_minutes: 60 },
      }),
    );
    expect(result.member.email_address).toBe('ada@acme.test');
    expect(result.provider_values.id_token.split('.')).toHaveLength(3);
    expect(result.member_session?.authentication_factors[0]?.delivery_method).toBe(
      'oauth_microsoft',
    );
  });

  it('refuses a token whose tenant is not the tenant of its issuer', async () => {
    const back = await callbackFor('spoof@acme.test', 'pw-spoof');
    expect(back.status).toBe(400);
    expect(back.location).toBeNull();
    expect(back.text).toContain('<code id="error-type">invalid_oidc_response</code>');
    expect(back.text).toContain('is not the issuer of its tenant');
  });

  it('does not take an unverified address outside the organization domains', async () => {
    const back = await callbackFor('mallory@elsewhere.test', 'pw-m');
    expect(back.status).toBe(403);
    expect(back.text).toContain('<code id="error-type">oauth_email_not_verified</code>');
    const discovery = await callbackFor('ada@acme.test', 'pw-ada', 'discovery/start');
    expect(discovery.status).toBe(403);
    expect(discovery.location).toBeNull();
  });
});
