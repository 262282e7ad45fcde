// The management API's sso.authenticate and sso.getConnections: a host backend redeems the sso
// token an OIDC sign-in returned with (once, and only in its own project) and lists connections.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';

const browser = new TestBrowser();
const CLIENT = { clientId: 'gatehouse-backend', clientSecret: 'a-client-secret-for-backends' };

let h: Harness;
let idp: OidcIdp;
let connectionId: string;
let callbackUrl: string;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  ({ connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, idp, CLIENT));
  idp.users.set('lin@acme.test', {
    password: 'correct horse',
    name: 'Lin Okafor',
    claims: { groups: ['research'] },
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

/** Signs in at the provider and follows the callback; returns the sso token it hands over. */
async function ssoToken(): Promise<string> {
  const start = await browser.navigate(startUrl(h, connectionId));
  const authorize = new URL(start.location ?? '');
  const { callback } = await signInAtIdp(authorize.href, callbackUrl, {
    email: 'lin@acme.test',
    password: 'correct horse',
  });
  if (!callback) throw new Error('The provider did not return');
  const back = await browser.navigate(callback);
  expect(back.status).toBe(302);
  return ssoTokenOf(back.location);
}

describe('management sso.authenticate', () => {
  it('redeems the sso token for a session, once', async () => {
    const token = await ssoToken();
    const res = await h.call(ENDPOINTS.backendSsoAuthenticate, { body: { sso_token: token } });
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(true);
    expect(data.organization_id).toBe(h.org.organization_id);
    expect(data.reset_session).toBe(false);
    expect(data.member.email_address).toBe('lin@acme.test');
    expect(data.session_token).not.toBe('');
    expect(data.member_session?.authentication_factors[0]).toMatchObject({ type: 'sso' });
    const again = await h.call(ENDPOINTS.backendSsoAuthenticate, { body: { sso_token: token } });
    expect(again.status).toBe(404);
  });

  it("answers the member with the connection's registration, its claims kept as attributes", async () => {
    const token = await ssoToken();
    const data = expectOk(
      await h.call(ENDPOINTS.backendSsoAuthenticate, { body: { sso_token: token } }),
    );
    const [registration, ...rest] = data.member.sso_registrations;
    expect(rest).toEqual([]);
    expect(registration).toMatchObject({
      connection_id: connectionId,
      external_id: expect.stringMatching(/.+/) as string,
      registration_id: expect.stringMatching(/.+/) as string,
    });
    expect(registration?.sso_attributes).toMatchObject({
      email: 'lin@acme.test',
      name: 'Lin Okafor',
      groups: ['research'],
    });
    // Claims about the token itself are not the person's.
    expect(registration?.sso_attributes).not.toHaveProperty('nonce');
    expect(registration?.sso_attributes).not.toHaveProperty('exp');
    expect(data.member.oauth_registrations).toEqual([]);
    // A later sign-in keeps the one registration.
    const again = expectOk(
      await h.call(ENDPOINTS.backendSsoAuthenticate, { body: { sso_token: await ssoToken() } }),
    );
    expect(again.member.sso_registrations.map((r) => r.registration_id)).toEqual([
      registration?.registration_id,
    ]);
  });

  it("refuses another project's secret key, and a JWT alone to extend", async () => {
    const token = await ssoToken();
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const foreign = await h.call(ENDPOINTS.backendSsoAuthenticate, {
      body: { sso_token: token },
      authorization: basic(other.project_id, other.secret),
    });
    expect(foreign.status).toBe(404);
    const login = await h.login(h.member.email_address);
    const jwtAlone = await h.call(ENDPOINTS.backendSsoAuthenticate, {
      body: { sso_token: token, session_jwt: login.session_jwt },
    });
    expect([jwtAlone.status, jwtAlone.error?.error_type]).toEqual([400, 'invalid_request']);
    // Neither spent the token.
    expect(
      (await h.call(ENDPOINTS.backendSsoAuthenticate, { body: { sso_token: token } })).status,
    ).toBe(200);
  });
});

describe('management sso.getConnections', () => {
  it("lists the organization's connections with the provider's three lists", async () => {
    const data = expectOk(
      await h.call(ENDPOINTS.ssoList, { params: { organization_id: h.org.organization_id } }),
    );
    expect(data.oidc_connections.map((c) => c.connection_id)).toEqual([connectionId]);
    expect(data.saml_connections).toEqual([]);
    expect(data.external_connections).toEqual([]);
  });
});
