// A connection turned off against a real SAML IdP: its test sign-in reports, real sign-ins are
// refused at the start and at the ACS, the login page does not offer it and it is nobody's
// default; turned on with the member's session, the same sign-in goes through. Connections made
// through the APIs start on unless told otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamlConnection } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, startSamlIdp, type OidcIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  addSamlConnection,
  authnRequestId,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
  type TestConnection,
} from '../../test/sso.js';

const browser = new TestBrowser();

let h: Harness;
let idp: SamlIdp;
let oidc: OidcIdp;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  [h, idp, oidc] = await Promise.all([
    startHarness({ listen: true }),
    startSamlIdp(),
    startOidcIdp(),
  ]);
  oidc.users.set('ada@acme.test', { password: 'ada-password', name: 'Ada' });
  await h.addMember('root@acme.test', ['admin']);
  adminToken = (await h.login('root@acme.test')).session_token;
  memberToken = (await h.login('ada@acme.test')).session_token;
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close(), oidc?.close()]);
});

const sp = (c: TestConnection) => ({ entityId: c.entityId, acsUrl: c.acsUrl });

const addConnection = (signInEnabled: boolean, organizationId?: string) =>
  addSamlConnection(h, {
    ...(organizationId !== undefined ? { organizationId } : {}),
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
    allowIdpInitiated: true,
    signInEnabled,
  });

const stored = async (id: string): Promise<SamlConnection> =>
  expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: adminToken })).saml_connections.find(
    (c) => c.connection_id === id,
  )!;

const turn = async (c: TestConnection, on: boolean, token = adminToken) =>
  h.call(ENDPOINTS.sdkSsoUpdateSaml, {
    token,
    params: { connection_id: c.connectionId },
    body: { sign_in_enabled: on, updated_at: (await stored(c.connectionId)).updated_at },
  });

const organization = async () =>
  expectOk(await h.call(ENDPOINTS.organizationMe, { token: adminToken })).organization;

function expectDisabled(res: { status: number; text: string; location: string | null }): void {
  expect(res.status).toBe(400);
  expect(res.location).toBeNull();
  expect(res.text).toContain('<code id="error-type">sso_connection_disabled</code>');
}

describe('a connection that is off', () => {
  it('refuses real sign-ins, is not offered, and still runs its test', async () => {
    const conn = await addConnection(false);
    expect((await stored(conn.connectionId)).sign_in_enabled).toBe(false);
    expectDisabled(await browser.navigate(startUrl(h, conn.connectionId)));
    // An unprompted response, which the connection would otherwise accept.
    const unprompted = await idp.createResponse({ sp: sp(conn), email: 'ada@acme.test' });
    expectDisabled(await browser.postToAcs(conn.acsUrl, unprompted));
    const org = await organization();
    expect(org.sso_active_connections.map((c) => c.connection_id)).not.toContain(conn.connectionId);
    expect(org.sso_default_connection_id).not.toBe(conn.connectionId);

    const started = expectOk(
      await h.call(ENDPOINTS.sdkSsoTestSaml, {
        token: adminToken,
        params: { connection_id: conn.connectionId },
        body: {},
      }),
    );
    const answer = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: started.test.test_id,
    });
    expect((await browser.postToAcs(conn.acsUrl, answer)).text).toContain('Nobody was signed in');
    const report = expectOk(
      await h.call(ENDPOINTS.sdkSsoTestSamlResult, {
        token: adminToken,
        params: { connection_id: conn.connectionId, test_id: started.test.test_id },
      }),
    ).test;
    expect(report.status).toBe('passed');

    // Turned on, the same sign-in goes through and the login page offers it.
    const on = expectOk(await turn(conn, true)).connection;
    expect(on.sign_in_enabled).toBe(true);
    expect((await organization()).sso_active_connections.map((c) => c.connection_id)).toContain(
      conn.connectionId,
    );
    const begun = await browser.navigate(startUrl(h, conn.connectionId));
    expect(begun.status).toBe(302);
    const acs = await browser.postToAcs(
      conn.acsUrl,
      await idp.createResponse({
        sp: sp(conn),
        email: 'ada@acme.test',
        inResponseTo: authnRequestId(begun.location ?? ''),
      }),
    );
    expect(acs.status).toBe(302);
    const signedIn = expectOk(
      await h.call(ENDPOINTS.ssoAuthenticate, {
        body: { sso_token: ssoTokenOf(acs.location), session_duration_minutes: 60 },
      }),
    );
    expect(signedIn.member.member_id).toBe(h.member.member_id);
  });

  it('refuses the answer to a sign-in started before it was turned off', async () => {
    const conn = await addConnection(true);
    const begun = await browser.navigate(startUrl(h, conn.connectionId));
    expect(begun.status).toBe(302);
    expectOk(await turn(conn, false));
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: authnRequestId(begun.location ?? ''),
    });
    expectDisabled(await browser.postToAcs(conn.acsUrl, response));
  });
});

describe('turning a connection on and off', () => {
  it('replaces the default when the default is turned off, and refuses an off default', async () => {
    const first = await addConnection(true);
    const second = await addConnection(true);
    expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: adminToken,
        body: { sso_default_connection_id: first.connectionId },
      }),
    );
    expectOk(await turn(first, false));
    const org = await organization();
    expect(org.sso_default_connection_id).not.toBe(first.connectionId);
    expect(org.sso_default_connection_id).not.toBeNull();

    const refused = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: adminToken,
      body: { sso_default_connection_id: first.connectionId },
    });
    expect(refused.status).toBe(400);
    expect(expectError(refused).error_type).toBe('sso_connection_disabled');
    expectOk(await turn(first, true));
    expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: adminToken,
        body: { sso_default_connection_id: second.connectionId },
      }),
    );
  });

  it('refuses a switch from a stale screen, a member without the permission and other organizations', async () => {
    const conn = await addConnection(false);
    const loaded = await stored(conn.connectionId);
    expectOk(await turn(conn, true));
    const stale = await h.call(ENDPOINTS.sdkSsoUpdateSaml, {
      token: adminToken,
      params: { connection_id: conn.connectionId },
      body: { sign_in_enabled: false, updated_at: loaded.updated_at },
    });
    expect(stale.status).toBe(409);
    expect(expectError(stale).error_type).toBe('stale_update');

    const denied = await turn(conn, false, memberToken);
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');

    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Neighbours',
      organization_slug: 'neighbours-switch',
    });
    const their = await addConnection(true, theirs.organization_id);
    const foreign = await h.call(ENDPOINTS.sdkSsoUpdateSaml, {
      token: adminToken,
      params: { connection_id: their.connectionId },
      body: { sign_in_enabled: false },
    });
    expect(foreign.status).toBe(404);
    expect(expectError(foreign).error_type).toBe('connection_not_found');
    expect((await stored(conn.connectionId)).sign_in_enabled).toBe(true);
  });

  it('starts connections made through the APIs on, unless told otherwise', async () => {
    const byHost = expectOk(
      await h.call(ENDPOINTS.ssoCreateSaml, {
        params: { organization_id: h.org.organization_id },
        body: { display_name: 'Host' },
      }),
    ).connection;
    expect(byHost.sign_in_enabled).toBe(true);
    const byMember = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateOidc, { token: adminToken, body: {} }),
    ).connection;
    expect(byMember.sign_in_enabled).toBe(true);
    const off = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateSaml, {
        token: adminToken,
        body: { sign_in_enabled: false },
      }),
    ).connection;
    expect(off.sign_in_enabled).toBe(false);
    const oidcOff = expectOk(
      await h.call(ENDPOINTS.sdkSsoUpdateOidc, {
        token: adminToken,
        params: { connection_id: byMember.connection_id },
        body: { sign_in_enabled: false },
      }),
    ).connection;
    expect(oidcOff.sign_in_enabled).toBe(false);
  });
});

describe('an OIDC connection that is off', () => {
  it('refuses the start and the callback of a sign-in started before it was turned off', async () => {
    const { connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, oidc, {
      clientId: 'gatehouse-switch',
      clientSecret: 'a-client-secret-of-some-length',
    });
    const begun = await browser.navigate(startUrl(h, connectionId));
    expect(begun.status).toBe(302);
    const { callback } = await signInAtIdp(begun.location ?? '', callbackUrl, {
      email: 'ada@acme.test',
      password: 'ada-password',
    });
    const loaded = expectOk(
      await h.call(ENDPOINTS.sdkSsoList, { token: adminToken }),
    ).oidc_connections.find((c) => c.connection_id === connectionId)!;
    expect(loaded.sign_in_enabled).toBe(true);
    const off = expectOk(
      await h.call(ENDPOINTS.sdkSsoUpdateOidc, {
        token: adminToken,
        params: { connection_id: connectionId },
        body: { sign_in_enabled: false, updated_at: loaded.updated_at },
      }),
    ).connection;
    expect(off.sign_in_enabled).toBe(false);
    expectDisabled(await browser.navigate(callback ?? ''));
    expectDisabled(await browser.navigate(startUrl(h, connectionId)));
  });
});
