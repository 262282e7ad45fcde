// Test sign-ins of SAML connections over HTTP against a real SAML IdP: the report of each check,
// nobody signed in, and the abuse cases (other organizations, missing permission, replays, a
// test's answer as a sign-in and a sign-in's answer as a test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addSamlConnection,
  authnRequestId,
  postToAcs,
  ssoTokenOf,
  startUrl,
  type TestConnection,
} from '../../test/sso.js';

let h: Harness;
let idp: SamlIdp;
let conn: TestConnection;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  conn = await addSamlConnection(h, {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
    groupRoles: [{ group: 'it-admins', role_id: 'admin' }],
  });
  await h.addMember('root@acme.test', ['admin']);
  adminToken = (await h.login('root@acme.test')).session_token;
  memberToken = (await h.login('ada@acme.test')).session_token;
  // The SAML workers start cold: one response checked first (an unprompted one, refused after its
  // checks) keeps a loaded machine from failing the first test's report on the time budget.
  await postToAcs(conn.acsUrl, await idp.createResponse({ sp: sp(conn), email: 'ada@acme.test' }));
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

const sp = (c: TestConnection) => ({ entityId: c.entityId, acsUrl: c.acsUrl });

async function startTest(c: TestConnection = conn, token = adminToken) {
  return expectOk(
    await h.call(ENDPOINTS.sdkSsoTestSaml, {
      token,
      params: { connection_id: c.connectionId },
      body: {},
    }),
  );
}

async function readTest(testId: string, c: TestConnection = conn, token = adminToken) {
  return h.call(ENDPOINTS.sdkSsoTestSamlResult, {
    token,
    params: { connection_id: c.connectionId, test_id: testId },
  });
}

/** A session in another organization than the seeded one. */
async function loginTo(email: string, organizationId: string): Promise<string> {
  expectOk(
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: email, organization_id: organizationId },
    }),
  );
  const res = await h.call(ENDPOINTS.magicLinksAuthenticate, {
    body: { magic_links_token: await h.lastToken(email), session_duration_minutes: 60 },
  });
  return expectOk(res).session_token;
}

async function memberCount(email: string): Promise<number> {
  const rows = await h.db.selectFrom('members').select('id').where('email', '=', email).execute();
  return rows.length;
}

describe('a test sign-in', () => {
  it('reports every check passed, with the attributes and roles, and signs nobody in', async () => {
    const started = await startTest();
    expect(started.test.status).toBe('pending');
    expect(started.idp_url.startsWith(idp.ssoUrl)).toBe(true);
    expect(authnRequestId(started.idp_url)).toBe(started.test.test_id);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'newcomer@acme.test',
      firstName: 'New',
      groups: ['it-admins'],
      inResponseTo: started.test.test_id,
    });
    const acs = await postToAcs(conn.acsUrl, response);
    expect(acs.status).toBe(200);
    expect(acs.location).toBeNull();
    expect(acs.text).toContain('Nobody was signed in');
    // The page closes its popup (e2e/admin-sso.test.ts sees it close).
    expect(acs.text).toContain('<script>window.close();</script>');
    expect(await memberCount('newcomer@acme.test')).toBe(0);

    const { test } = expectOk(await readTest(started.test.test_id));
    expect(test.error).toBeNull();
    expect(test.status).toBe('passed');
    expect(test.finished_at).not.toBeNull();
    expect(test.checks.map((c) => [c.check, c.status])).toEqual([
      ['signature', 'passed'],
      ['issuer', 'passed'],
      ['audience', 'passed'],
      ['recipient', 'passed'],
      ['clock', 'passed'],
      ['name_id', 'passed'],
      ['email', 'passed'],
      // lastName is mapped but the IdP sent none.
      ['attributes', 'warning'],
    ]);
    expect(test.checks[7]?.message).toContain('lastName');
    expect(test.name_id).toBe('newcomer@acme.test');
    expect(test.attributes).toMatchObject({ email: ['newcomer@acme.test'], firstName: ['New'] });
    expect(test.mapped).toEqual({
      email: 'newcomer@acme.test',
      first_name: 'New',
      last_name: '',
      groups: ['it-admins'],
    });
    expect(test.roles).toEqual(['admin']);
  });

  it("lists the connection's roles for everyone beside its group roles, as a sign-in gives them", async () => {
    expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'contractor' },
        body: { permissions: [{ resource_id: 'stytch.self', actions: ['*'] }] },
      }),
    );
    const everyone = await addSamlConnection(h, {
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
      groupRoles: [{ group: 'it-admins', role_id: 'admin' }],
      // A role given both ways is listed once; one deleted from the policy is not given.
      connectionRoles: ['contractor', 'admin', 'deleted-role'],
    });
    const answer = async (groups: string[]) => {
      const started = await startTest(everyone);
      const response = await idp.createResponse({
        sp: sp(everyone),
        email: 'newcomer@acme.test',
        groups,
        inResponseTo: started.test.test_id,
      });
      expect((await postToAcs(everyone.acsUrl, response)).status).toBe(200);
      return expectOk(await readTest(started.test.test_id, everyone)).test;
    };
    expect((await answer(['it-admins'])).roles).toEqual(['admin', 'contractor']);
    expect((await answer([])).roles).toEqual(['contractor', 'admin']);
    expect(await memberCount('newcomer@acme.test')).toBe(0);
  });

  it('names the check that refused the response, and leaves the later ones unchecked', async () => {
    const other = await startTest();
    await postToAcs(
      conn.acsUrl,
      await idp.createResponse({
        sp: sp(conn),
        email: 'ada@acme.test',
        signWith: 'other',
        inResponseTo: other.test.test_id,
      }),
    );
    const signed = expectOk(await readTest(other.test.test_id)).test;
    expect(signed.status).toBe('failed');
    expect(signed.checks[0]).toMatchObject({ check: 'signature', status: 'failed' });
    expect(signed.checks.slice(1).every((c) => c.status === 'not_checked')).toBe(true);
    expect(signed.error).toContain('signature');

    const audience = await startTest();
    await postToAcs(
      conn.acsUrl,
      await idp.createResponse({
        sp: sp(conn),
        email: 'ada@acme.test',
        audience: 'https://elsewhere.example/sp',
        inResponseTo: audience.test.test_id,
      }),
    );
    const report = expectOk(await readTest(audience.test.test_id)).test;
    expect(report.checks.map((c) => [c.check, c.status])).toEqual([
      ['signature', 'passed'],
      ['issuer', 'not_checked'],
      ['audience', 'failed'],
      ['recipient', 'not_checked'],
      ['clock', 'not_checked'],
      ['name_id', 'not_checked'],
      ['email', 'not_checked'],
      ['attributes', 'not_checked'],
    ]);
  });

  it('refuses a replayed test response and keeps the first report', async () => {
    const started = await startTest();
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: started.test.test_id,
    });
    expect((await postToAcs(conn.acsUrl, response)).status).toBe(200);
    const first = expectOk(await readTest(started.test.test_id)).test;
    const replay = await postToAcs(conn.acsUrl, response);
    expect(replay.status).toBe(400);
    expect(replay.location).toBeNull();
    expect(replay.text).toContain('<code id="error-type">invalid_saml_response</code>');
    expect(expectOk(await readTest(started.test.test_id)).test).toEqual(first);
  });

  it('takes one of two concurrent answers to the same test', async () => {
    const started = await startTest();
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: started.test.test_id,
    });
    const answers = await Promise.all([
      postToAcs(conn.acsUrl, response),
      postToAcs(conn.acsUrl, response),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it("never signs in with a test's answer, nor fills a test with a sign-in's answer", async () => {
    const browser = new TestBrowser();
    const pending = await startTest();
    // A real sign-in in the same moment: its response goes to the sign-in, the test stays pending.
    const start = await browser.navigate(startUrl(h, conn.connectionId));
    const requestId = authnRequestId(start.location ?? '');
    const real = await browser.postToAcs(
      conn.acsUrl,
      await idp.createResponse({ sp: sp(conn), email: 'ada@acme.test', inResponseTo: requestId }),
    );
    expect(real.status).toBe(302);
    expect(ssoTokenOf(real.location)).toMatch(/./);
    expect(expectOk(await readTest(pending.test.test_id)).test.status).toBe('pending');

    // The test's answer from the browser that started a sign-in: a report, no token, no member.
    const answer = await browser.postToAcs(
      conn.acsUrl,
      await idp.createResponse({
        sp: sp(conn),
        email: 'stranger@acme.test',
        inResponseTo: pending.test.test_id,
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.location).toBeNull();
    expect(await memberCount('stranger@acme.test')).toBe(0);
    // The real request, spent, cannot be read as a test either.
    expect(expectError(await readTest(requestId)).error_type).toBe('sso_test_not_found');
  });

  it('is refused for a connection not fully set up', async () => {
    const pending = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateSaml, {
        token: adminToken,
        body: { display_name: 'New' },
      }),
    ).connection;
    const res = await h.call(ENDPOINTS.sdkSsoTestSaml, {
      token: adminToken,
      params: { connection_id: pending.connection_id },
      body: {},
    });
    expect(expectError(res).error_type).toBe('sso_connection_inactive');
  });
});

describe('abuse', () => {
  it("never starts or reads a test of another organization's connection", async () => {
    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Neighbours',
      organization_slug: 'neighbours-test',
    });
    const their = await addSamlConnection(h, {
      organizationId: theirs.organization_id,
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
    });
    const start = await h.call(ENDPOINTS.sdkSsoTestSaml, {
      token: adminToken,
      params: { connection_id: their.connectionId },
      body: {},
    });
    expect(start.status).toBe(404);
    expect(expectError(start).error_type).toBe('connection_not_found');

    // Their admin's test is not readable by ours, through either connection id.
    await h.addMember('boss@neighbours.test', ['admin'], theirs.organization_id);
    const theirToken = await loginTo('boss@neighbours.test', theirs.organization_id);
    const theirTest = await startTest(their, theirToken);
    const viaTheirs = await readTest(theirTest.test.test_id, their);
    expect(expectError(viaTheirs).error_type).toBe('connection_not_found');
    const viaOurs = await readTest(theirTest.test.test_id, conn);
    expect(expectError(viaOurs).error_type).toBe('sso_test_not_found');
  });

  it('refuses members without the permission, and callers without a session', async () => {
    const started = await startTest();
    const denied = await h.call(ENDPOINTS.sdkSsoTestSaml, {
      token: memberToken,
      params: { connection_id: conn.connectionId },
      body: {},
    });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const read = await readTest(started.test.test_id, conn, memberToken);
    expect(expectError(read).error_type).toBe('unauthorized_action');
    const anonymous = await h.call(ENDPOINTS.sdkSsoTestSamlResult, {
      params: { connection_id: conn.connectionId, test_id: started.test.test_id },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("the organization's SSO settings with the member's session", () => {
  it('sets the default connection and the JIT rules to its own active connections only', async () => {
    const org = expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: adminToken,
        body: {
          sso_default_connection_id: conn.connectionId,
          sso_jit_provisioning: 'RESTRICTED',
          sso_jit_provisioning_allowed_connections: [conn.connectionId],
        },
      }),
    ).organization;
    expect(org.sso_default_connection_id).toBe(conn.connectionId);
    expect(org.sso_jit_provisioning).toBe('RESTRICTED');
    expect(org.sso_jit_provisioning_allowed_connections).toEqual([conn.connectionId]);

    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Others',
      organization_slug: 'others-jit',
    });
    const their = await addSamlConnection(h, {
      organizationId: theirs.organization_id,
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
    });
    for (const body of [
      { sso_default_connection_id: their.connectionId },
      { sso_jit_provisioning_allowed_connections: [their.connectionId] },
    ]) {
      const res = await h.call(ENDPOINTS.organizationUpdateMe, { token: adminToken, body });
      expect(expectError(res).error_type).toBe('connection_not_found');
    }
    const denied = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: memberToken,
      body: { sso_jit_provisioning: 'ALL_ALLOWED' },
    });
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const now = expectOk(await h.call(ENDPOINTS.organizationMe, { token: adminToken }));
    expect(now.organization.sso_jit_provisioning).toBe('RESTRICTED');
  });
});
