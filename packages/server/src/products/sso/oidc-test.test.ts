// Test sign-ins of OIDC connections over HTTP against a real OpenID provider: the report of each
// check, nobody signed in, and the abuse cases (other organizations, missing permission, replays,
// a test's answer as a sign-in and a sign-in's answer as a test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  addOidcConnection,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';
import type { OidcSettings } from './connections.js';

let h: Harness;
let idp: OidcIdp;
let connectionId: string;
let callbackUrl: string;
let adminToken: string;
let memberToken: string;

const CLIENT = { clientId: 'gatehouse-oidc-test', clientSecret: 'a-client-secret-of-some-length' };

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  ({ connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, idp, CLIENT));
  const row = await h.db
    .selectFrom('sso_connections')
    .select('settings')
    .where('id', '=', connectionId)
    .executeTakeFirstOrThrow();
  const settings: OidcSettings = {
    ...(JSON.parse(row.settings) as OidcSettings),
    group_roles: [{ group: 'it', role_id: 'admin' }],
  };
  await h.db
    .updateTable('sso_connections')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', connectionId)
    .execute();
  idp.users.set('newcomer@acme.test', { password: 'pw-new', name: 'New Comer', groups: ['it'] });
  idp.users.set('ada@acme.test', { password: 'ada-password', name: 'Ada' });
  idp.users.set('unverified@acme.test', { password: 'pw-unverified', emailVerified: false });
  await h.addMember('root@acme.test', ['admin']);
  adminToken = (await h.login('root@acme.test')).session_token;
  memberToken = (await h.login('ada@acme.test')).session_token;
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

async function startTest(id = connectionId, token = adminToken) {
  return expectOk(
    await h.call(ENDPOINTS.sdkSsoTestOidc, { token, params: { connection_id: id }, body: {} }),
  );
}

function readTest(testId: string, id = connectionId, token = adminToken) {
  return h.call(ENDPOINTS.sdkSsoTestOidcResult, {
    token,
    params: { connection_id: id, test_id: testId },
  });
}

/** Signs in at the provider from `url`; answers the callback URL it sends back. */
async function atIdp(url: string, email: string, password: string): Promise<string> {
  const { callback } = await signInAtIdp(url, callbackUrl, { email, password });
  if (!callback) throw new Error('The provider did not return');
  return callback;
}

async function memberCount(email: string): Promise<number> {
  const rows = await h.db.selectFrom('members').select('id').where('email', '=', email).execute();
  return rows.length;
}

const statuses = (checks: { check: string; status: string }[]) =>
  checks.map((c) => [c.check, c.status]);

describe('an OIDC test sign-in', () => {
  it('reports every check passed, with the claims and roles, and signs nobody in', async () => {
    const started = await startTest();
    expect(started.test.status).toBe('pending');
    expect(started.idp_url.startsWith(idp.issuer)).toBe(true);
    const back = await new TestBrowser().navigate(
      await atIdp(started.idp_url, 'newcomer@acme.test', 'pw-new'),
    );
    expect(back.status).toBe(200);
    expect(back.location).toBeNull();
    expect(back.text).toContain('Nobody was signed in');
    // The page closes its popup, as the SAML test's does.
    expect(back.text).toContain('<script>window.close();</script>');
    expect(await memberCount('newcomer@acme.test')).toBe(0);

    const { test } = expectOk(await readTest(started.test.test_id));
    expect(test.error).toBeNull();
    expect(test.status).toBe('passed');
    expect(test.finished_at).not.toBeNull();
    expect(statuses(test.checks)).toEqual([
      ['discovery', 'passed'],
      ['token_exchange', 'passed'],
      ['signature', 'passed'],
      ['issuer', 'passed'],
      ['audience', 'passed'],
      ['nonce', 'passed'],
      ['expiry', 'passed'],
      ['email', 'passed'],
      ['email_verified', 'passed'],
      ['attributes', 'passed'],
    ]);
    expect(test.name_id).toBe('newcomer@acme.test');
    expect(test.mapped).toMatchObject({ email: 'newcomer@acme.test', groups: ['it'] });
    expect(test.attributes.name).toEqual(['New Comer']);
    expect(test.roles).toEqual(['admin']);
  });

  it('fails the nonce check of an ID token for another request, and reaches no later check', async () => {
    const started = await startTest();
    const callback = await atIdp(started.idp_url, 'ada@acme.test', 'ada-password');
    await h.db
      .updateTable('sso_requests')
      .set({ nonce: 'another-nonce' })
      .where('id', '=', started.test.test_id)
      .execute();
    expect((await new TestBrowser().navigate(callback)).status).toBe(200);
    const { test } = expectOk(await readTest(started.test.test_id));
    expect(test.status).toBe('failed');
    expect(test.error).toMatch(/nonce/);
    expect(statuses(test.checks)).toEqual([
      ['discovery', 'passed'],
      ['token_exchange', 'passed'],
      ['signature', 'not_checked'],
      ['issuer', 'not_checked'],
      ['audience', 'not_checked'],
      ['nonce', 'failed'],
      ['expiry', 'not_checked'],
      ['email', 'not_checked'],
      ['email_verified', 'not_checked'],
      ['attributes', 'not_checked'],
    ]);
  });

  it('fails email_verified for an address the provider has not verified', async () => {
    const started = await startTest();
    const callback = await atIdp(started.idp_url, 'unverified@acme.test', 'pw-unverified');
    await new TestBrowser().navigate(callback);
    const { test } = expectOk(await readTest(started.test.test_id));
    expect(test.status).toBe('failed');
    expect(test.checks.find((c) => c.check === 'email_verified')?.status).toBe('failed');
    expect(test.checks.find((c) => c.check === 'email')?.status).toBe('passed');
    expect(await memberCount('unverified@acme.test')).toBe(0);
  });

  it('reports the provider refusing the sign-in as a failed exchange', async () => {
    const started = await startTest();
    const state = new URL(started.idp_url).searchParams.get('state') ?? '';
    const denied = new URL(callbackUrl);
    denied.search = new URLSearchParams({ error: 'access_denied', state }).toString();
    expect((await new TestBrowser().navigate(denied.href)).status).toBe(200);
    const { test } = expectOk(await readTest(started.test.test_id));
    expect(test.checks.find((c) => c.check === 'token_exchange')?.status).toBe('failed');
    expect(test.error).toContain('access_denied');
  });

  it('refuses a replayed callback and keeps the first report', async () => {
    const started = await startTest();
    const callback = await atIdp(started.idp_url, 'ada@acme.test', 'ada-password');
    const browser = new TestBrowser();
    expect((await browser.navigate(callback)).status).toBe(200);
    const first = expectOk(await readTest(started.test.test_id)).test;
    const replay = await browser.navigate(callback);
    expect(replay.status).toBe(400);
    expect(replay.location).toBeNull();
    expect(replay.text).toContain('<code id="error-type">invalid_oidc_response</code>');
    // An error page runs no script: it closes nothing.
    expect(replay.text).not.toContain('<script');
    expect(expectOk(await readTest(started.test.test_id)).test).toEqual(first);
  });

  it('takes one of two concurrent callbacks of the same test', async () => {
    const started = await startTest();
    const callback = await atIdp(started.idp_url, 'ada@acme.test', 'ada-password');
    const browser = new TestBrowser();
    const answers = await Promise.all([browser.navigate(callback), browser.navigate(callback)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it("never signs in with a test's callback, nor fills a test with a sign-in's", async () => {
    const browser = new TestBrowser();
    const pending = await startTest();
    // A real sign-in in the same moment: its callback signs in, the test stays pending.
    const start = await browser.navigate(startUrl(h, connectionId));
    const real = await browser.navigate(
      await atIdp(start.location ?? '', 'ada@acme.test', 'ada-password'),
    );
    expect(real.status).toBe(302);
    expect(ssoTokenOf(real.location)).toMatch(/./);
    expect(expectOk(await readTest(pending.test.test_id)).test.status).toBe('pending');

    // The test's callback in the browser that started a sign-in: a report, no token, no member.
    const answer = await browser.navigate(
      await atIdp(pending.idp_url, 'newcomer@acme.test', 'pw-new'),
    );
    expect(answer.status).toBe(200);
    expect(answer.location).toBeNull();
    expect(await memberCount('newcomer@acme.test')).toBe(0);
    expect(expectOk(await readTest(pending.test.test_id)).test.status).toBe('passed');
  });
});

describe('abuse of OIDC tests', () => {
  it("never starts or reads a test of another organization's connection", async () => {
    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Neighbours',
      organization_slug: 'neighbours-oidc-test',
    });
    const row = await h.db
      .selectFrom('sso_connections')
      .select('settings')
      .where('id', '=', connectionId)
      .executeTakeFirstOrThrow();
    const their = await addOidcConnection(h, {
      organizationId: theirs.organization_id,
      clientSecret: CLIENT.clientSecret,
      settings: JSON.parse(row.settings) as OidcSettings,
    });
    const start = await h.call(ENDPOINTS.sdkSsoTestOidc, {
      token: adminToken,
      params: { connection_id: their },
      body: {},
    });
    expect(start.status).toBe(404);
    expect(expectError(start).error_type).toBe('connection_not_found');

    await h.addMember('boss@neighbours.test', ['admin'], theirs.organization_id);
    expectOk(
      await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: 'boss@neighbours.test', organization_id: theirs.organization_id },
      }),
    );
    const theirToken = expectOk(
      await h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: {
          magic_links_token: await h.lastToken('boss@neighbours.test'),
          session_duration_minutes: 60,
        },
      }),
    ).session_token;
    const theirTest = await startTest(their, theirToken);
    const viaTheirs = await readTest(theirTest.test.test_id, their);
    expect(expectError(viaTheirs).error_type).toBe('connection_not_found');
    const viaOurs = await readTest(theirTest.test.test_id, connectionId);
    expect(expectError(viaOurs).error_type).toBe('sso_test_not_found');
  });

  it('refuses members without the permission, and callers without a session', async () => {
    const started = await startTest();
    const denied = await h.call(ENDPOINTS.sdkSsoTestOidc, {
      token: memberToken,
      params: { connection_id: connectionId },
      body: {},
    });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const read = await readTest(started.test.test_id, connectionId, memberToken);
    expect(expectError(read).error_type).toBe('unauthorized_action');
    const anonymous = await h.call(ENDPOINTS.sdkSsoTestOidcResult, {
      params: { connection_id: connectionId, test_id: started.test.test_id },
    });
    expect(anonymous.status).toBe(401);
  });

  it('never reads a sign-in request as a test', async () => {
    const browser = new TestBrowser();
    await browser.navigate(startUrl(h, connectionId));
    const real = await h.db
      .selectFrom('sso_requests')
      .select('id')
      .where('connection_id', '=', connectionId)
      .where('test_member_id', 'is', null)
      .executeTakeFirstOrThrow();
    expect(expectError(await readTest(real.id)).error_type).toBe('sso_test_not_found');
  });
});
