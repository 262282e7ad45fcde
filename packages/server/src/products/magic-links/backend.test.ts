// The management API's magic-link calls: loginOrSignup, authenticate and discovery.send, for a
// host backend, under the browser API's allow-lists and single use.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const send = (email: string, extra: { signup_redirect_url?: string } = {}) =>
  h.call(ENDPOINTS.backendMagicLinksLoginOrSignup, {
    body: { organization_id: h.org.organization_id, email_address: email, ...extra },
  });
const redeem = (token: string, authorization?: string) =>
  h.call(ENDPOINTS.backendMagicLinksAuthenticate, {
    body: { magic_links_token: token, session_duration_minutes: 60 },
    ...(authorization ? { authorization } : {}),
  });

describe('management magicLinks.email.loginOrSignup and magicLinks.authenticate', () => {
  it('sends a member a link and names them; the link signs them in once', async () => {
    const sent = expectOk(await send('ada@acme.test'));
    expect(sent.member_created).toBe(false);
    expect(sent.member_id).toBe(h.member.member_id);
    expect(sent.organization.organization_id).toBe(h.org.organization_id);
    const token = await h.lastToken('ada@acme.test');
    const data = expectOk(await redeem(token));
    expect(data.member_authenticated).toBe(true);
    expect(data.member_id).toBe(h.member.member_id);
    expect(data.organization_id).toBe(h.org.organization_id);
    expect(data.reset_sessions).toBe(false);
    expect(data.method_id).not.toBe('');
    const again = await redeem(token);
    expect([again.status, again.error?.error_type]).toEqual([404, 'magic_link_not_found']);
  });

  it('creates someone who may join by e-mail domain as pending, active once the link is used', async () => {
    const sent = expectOk(await send('newcomer@acme.test'));
    expect(sent.member_created).toBe(true);
    expect(sent.member.status).toBe('pending');
    const twice = expectOk(await send('newcomer@acme.test'));
    expect([twice.member_created, twice.member_id]).toEqual([false, sent.member_id]);
    const data = expectOk(await redeem(await h.lastToken('newcomer@acme.test')));
    expect(data.member_id).toBe(sent.member_id);
    expect(data.member.status).toBe('active');
  });

  it("answers 404 for another project's organization and sends nothing", async () => {
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const res = await h.call(ENDPOINTS.backendMagicLinksLoginOrSignup, {
      body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
      authorization: basic(other.project_id, other.secret),
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
  });

  it("refuses another project's secret key, leaving the link unspent", async () => {
    expectOk(await send('ada@acme.test'));
    const token = await h.lastToken('ada@acme.test');
    const other = await h.admin.createProject({ name: 'Elsewhere too' });
    const foreign = await redeem(token, basic(other.project_id, other.secret));
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'magic_link_not_found']);
    expect(expectOk(await redeem(token)).member_authenticated).toBe(true);
  });

  it('refuses a redirect URL that is not on the allow-list', async () => {
    const res = await send('ada@acme.test', { signup_redirect_url: 'https://evil.example/in' });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_redirect_url']);
  });

  it('refuses a discovery link as a login link', async () => {
    expectOk(
      await h.call(ENDPOINTS.backendMagicLinksDiscoverySend, {
        body: { email_address: 'grace@acme.test' },
      }),
    );
    const res = await redeem(await h.lastToken('grace@acme.test'));
    expect([res.status, res.error?.error_type]).toEqual([404, 'magic_link_not_found']);
  });
});

describe('management magicLinks.email.discovery.send', () => {
  it('answers the same for known and unknown addresses, each getting a discovery link', async () => {
    for (const email of ['ada@acme.test', 'ghost@nowhere.example']) {
      const res = await h.call(ENDPOINTS.backendMagicLinksDiscoverySend, {
        body: { email_address: email },
      });
      expect(Object.keys(expectOk(res)).sort()).toEqual(['request_id', 'status_code']);
      const mail = (await h.admin.listOutbox()).find((m) => m.to === email);
      const url = new URL(mail?.links[0] ?? '');
      expect(url.searchParams.get('stytch_token_type')).toBe('discovery');
    }
  });

  it('refuses a discovery URL that is not on the allow-list', async () => {
    const res = await h.call(ENDPOINTS.backendMagicLinksDiscoverySend, {
      body: { email_address: 'ada@acme.test', discovery_redirect_url: 'https://evil.example' },
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_redirect_url']);
  });
});
