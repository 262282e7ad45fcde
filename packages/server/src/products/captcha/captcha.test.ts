// Captcha end to end over HTTP against a captcha provider stand-in on a loopback port: settings
// through the management API, bootstrap, and the check on every D call (docs/protocol.md §7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startCaptchaStandIn, type CaptchaStandIn } from '@gatehouse/testing/idp';
import {
  basic,
  expectOk,
  startHarness,
  type Harness,
  type LoginResult,
} from '../../test/harness.js';

let h: Harness;
let provider: CaptchaStandIn;
let session: LoginResult;
const SITE = { key: 'site-acme', secret: 'secret-acme-0123456789' };
const OTHER_SITE = { key: 'site-other', secret: 'secret-other-0123456789' };
// Kept short so the stalled-provider case ends quickly; real providers answer in well under it.
const TIMEOUT_MS = 1500;

beforeAll(async () => {
  provider = await startCaptchaStandIn();
  provider.addSite(SITE.key, SITE.secret);
  provider.addSite(OTHER_SITE.key, OTHER_SITE.secret);
  h = await startHarness({
    config: { captchaVerifyUrl: provider.verifyUrl, captchaTimeoutMs: TIMEOUT_MS },
  });
  session = await h.login();
});

afterAll(async () => {
  await Promise.all([h?.close(), provider?.close()]);
});

const send = (captcha_token?: unknown) =>
  h.sdk('/b2b/magic_links/email/discovery/send', {
    body: {
      email_address: 'ada@acme.test',
      ...(captcha_token === undefined ? {} : { captcha_token }),
    },
  });

const setCaptcha = (body: Parameters<typeof h.call<typeof ENDPOINTS.setCaptcha>>[1]) =>
  h.call(ENDPOINTS.setCaptcha, body);

const turnOn = async (provider_name: 'turnstile' | 'recaptcha' | 'hcaptcha' = 'turnstile') =>
  expectOk(
    await setCaptcha({
      body: {
        enabled: true,
        provider: provider_name,
        site_key: SITE.key,
        secret_key: SITE.secret,
      },
    }),
  );

const bootstrap = async () =>
  expectOk(await h.call(ENDPOINTS.bootstrap, { params: { public_token: h.project.public_token } }))
    .captcha_settings;

describe('captcha off (the default)', () => {
  it('publishes {enabled: false} and D calls need no token', async () => {
    expect(await bootstrap()).toEqual({ enabled: false });
    expect(expectOk(await h.call(ENDPOINTS.getCaptcha)).captcha).toEqual({
      enabled: false,
      provider: 'turnstile',
      site_key: '',
      secret_key_set: false,
      min_score: 0.5,
    });
    expect((await send()).status).toBe(200);
    // A token sent anyway is ignored, never checked.
    expect((await send('anything')).status).toBe(200);
    expect(provider.verifications).toEqual([]);
  });
});

describe('captcha settings in the management API', () => {
  it('refuses to turn captcha on without both keys, and stores nothing', async () => {
    const res = await setCaptcha({ body: { enabled: true, site_key: SITE.key } });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    expect(await h.db.selectFrom('captcha_settings').selectAll().execute()).toEqual([]);
  });

  it('refuses a bad body and a bad secret key', async () => {
    const bad = await h.request('/v1/b2b/captcha', {
      method: 'PUT',
      authorization: basic(h.project.project_id, h.project.secret),
      body: { provider: 'friendlycaptcha', min_score: 2 },
    });
    expect([bad.status, bad.error?.error_type]).toEqual([400, 'invalid_request']);
    const wrong = await h.call(ENDPOINTS.setCaptcha, {
      authorization: basic(h.project.project_id, 'not-the-secret'),
      body: { enabled: true },
    });
    expect([wrong.status, wrong.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const publicToken = await h.call(ENDPOINTS.getCaptcha, {
      authorization: basic(h.project.public_token, h.project.public_token),
    });
    expect(publicToken.status).toBe(401);
  });

  it('stores the secret key sealed and never returns it', async () => {
    const res = await setCaptcha({
      body: { enabled: true, provider: 'turnstile', site_key: SITE.key, secret_key: SITE.secret },
    });
    expect(expectOk(res).captcha).toEqual({
      enabled: true,
      provider: 'turnstile',
      site_key: SITE.key,
      secret_key_set: true,
      min_score: 0.5,
    });
    expect(res.text).not.toContain(SITE.secret);
    const row = await h.db.selectFrom('captcha_settings').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_encrypted).toMatch(/^v1\./);
    expect(row.secret_encrypted).not.toContain(SITE.secret);
    expect((await h.call(ENDPOINTS.getCaptcha)).text).not.toContain(SITE.secret);
    expect(await bootstrap()).toEqual({ enabled: true, siteKey: SITE.key });
  });

  it("keeps each project's settings apart", async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    const otherAuth = basic(other.project_id, other.secret);
    expect(
      expectOk(await h.call(ENDPOINTS.getCaptcha, { authorization: otherAuth })).captcha,
    ).toMatchObject({ enabled: false, site_key: '' });
    expectOk(
      await h.call(ENDPOINTS.setCaptcha, {
        authorization: otherAuth,
        body: { enabled: false, site_key: OTHER_SITE.key, secret_key: OTHER_SITE.secret },
      }),
    );
    expect(expectOk(await h.call(ENDPOINTS.getCaptcha)).captcha.site_key).toBe(SITE.key);
    const otherBoot = await h.call(ENDPOINTS.bootstrap, {
      params: { public_token: other.public_token },
      origin: null,
    });
    expect(expectOk(otherBoot).captcha_settings).toEqual({ enabled: false });
  });

  it('settles concurrent changes to one row', async () => {
    const answers = await Promise.all(
      [0.1, 0.2, 0.3, 0.4].map((min_score) => setCaptcha({ body: { min_score } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const rows = await h.db.selectFrom('captcha_settings').selectAll().execute();
    expect(rows.filter((r) => r.project_id === h.project.project_id)).toHaveLength(1);
    expectOk(await setCaptcha({ body: { min_score: 0.5 } }));
  });
});

describe('captcha on', () => {
  beforeAll(async () => {
    await turnOn();
  });

  it('refuses a D call without a token, before acting, in JSON without the retry phrase', async () => {
    const before = provider.verifications.length;
    const res = await send();
    expect([res.status, res.error?.error_type]).toEqual([400, 'captcha_required']);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.text.toLowerCase()).not.toContain('captcha required');
    expect((await send('')).error?.error_type).toBe('captcha_required');
    expect(provider.verifications.length).toBe(before);
  });

  it('accepts a token the provider minted, once, and sends it the secret and the address', async () => {
    const token = provider.mint(SITE.key, { action: 'LOGIN' });
    expect((await send(token)).status).toBe(200);
    expect(provider.verifications.at(-1)).toEqual({
      secret: SITE.secret,
      response: token,
      remoteip: '127.0.0.1',
      sitekey: undefined,
    });
    const again = await send(token);
    expect([again.status, again.error?.error_type]).toEqual([400, 'invalid_captcha']);
    expect(again.text.toLowerCase()).not.toContain('captcha required');
  });

  it("refuses made-up tokens, wrong types, and a token of another project's site", async () => {
    expect((await send('made-up')).error?.error_type).toBe('invalid_captcha');
    expect((await send(12345)).error?.error_type).toBe('invalid_captcha');
    expect((await send('x'.repeat(5000))).error?.error_type).toBe('invalid_captcha');
    const foreign = provider.mint(OTHER_SITE.key, { action: 'LOGIN' });
    const res = await send(foreign);
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_captcha']);
  });

  it('lets exactly one of two concurrent calls spend a token', async () => {
    const token = provider.mint(SITE.key, { action: 'LOGIN' });
    const answers = await Promise.all([send(token), send(token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it('checks credentials first: a bad public token gets 401 and no token is spent', async () => {
    const token = provider.mint(SITE.key, { action: 'LOGIN' });
    const res = await h.sdk('/b2b/magic_links/email/discovery/send', {
      publicToken: 'public-token-test-unknown',
      body: { email_address: 'ada@acme.test', captcha_token: token },
    });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    expect((await send(token)).status).toBe(200);
  });

  it('guards session and IST calls marked D, and leaves the others alone', async () => {
    const rotate = await h.call(ENDPOINTS.recoveryCodesRotate, { token: session.session_token });
    expect(rotate.error?.error_type).toBe('captcha_required');
    const sms = await h.call(ENDPOINTS.smsSend, {
      body: { organization_id: h.org.organization_id, member_id: h.member.member_id },
    });
    expect(sms.error?.error_type).toBe('captcha_required');
    // Not D in docs/protocol.md §7: no token needed.
    const search = await h.call(ENDPOINTS.organizationsSearch, {
      body: { organization_slug: 'acme' },
    });
    expect(search.status).toBe(200);
    const login = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    expect(login.status).toBe(200);
    const authenticate = await h.call(ENDPOINTS.sessionsAuthenticate, {
      token: session.session_token,
      body: {},
    });
    expect(authenticate.status).toBe(200);
  });

  it('completes a discovery link with a token on each D call', async () => {
    const sendToken = provider.mint(SITE.key, { action: 'LOGIN' });
    expect((await send(sendToken)).status).toBe(200);
    const link = await h.lastToken('ada@acme.test');
    const without = await h.sdk('/b2b/magic_links/discovery/authenticate', {
      body: { discovery_magic_links_token: link },
    });
    expect(without.error?.error_type).toBe('captcha_required');
    const res = await h.sdk('/b2b/magic_links/discovery/authenticate', {
      body: {
        discovery_magic_links_token: link,
        captcha_token: provider.mint(SITE.key, { action: 'LOGIN' }),
      },
    });
    expect(res.status).toBe(200);
  });

  it('answers 503 captcha_unavailable when the provider fails or stalls, never 500', async () => {
    provider.mode = 'error';
    try {
      const res = await send(provider.mint(SITE.key, { action: 'LOGIN' }));
      expect([res.status, res.error?.error_type]).toEqual([503, 'captcha_unavailable']);
      provider.mode = 'stall';
      const started = Date.now();
      const stalled = await send(provider.mint(SITE.key, { action: 'LOGIN' }));
      expect([stalled.status, stalled.error?.error_type]).toEqual([503, 'captcha_unavailable']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    } finally {
      provider.mode = 'ok';
    }
  });
});

describe('provider rules', () => {
  it('reCAPTCHA: the action must be LOGIN and the score reach the threshold', async () => {
    await turnOn('recaptcha');
    expect((await send(provider.mint(SITE.key, { action: 'LOGIN', score: 0.9 }))).status).toBe(200);
    const wrongAction = await send(provider.mint(SITE.key, { action: 'signup', score: 0.9 }));
    expect(wrongAction.error?.error_type).toBe('invalid_captcha');
    const noAction = await send(provider.mint(SITE.key, { score: 0.9 }));
    expect(noAction.error?.error_type).toBe('invalid_captcha');
    const low = await send(provider.mint(SITE.key, { action: 'LOGIN', score: 0.3 }));
    expect(low.error?.error_type).toBe('invalid_captcha');
    expectOk(await setCaptcha({ body: { min_score: 0.2 } }));
    expect((await send(provider.mint(SITE.key, { action: 'LOGIN', score: 0.3 }))).status).toBe(200);
    expectOk(await setCaptcha({ body: { min_score: 0.5 } }));
  });

  it('Turnstile: a token for another action is refused', async () => {
    await turnOn('turnstile');
    const res = await send(provider.mint(SITE.key, { action: 'signup' }));
    expect(res.error?.error_type).toBe('invalid_captcha');
  });

  it('hCaptcha: the site key goes along, binding the token to the site', async () => {
    await turnOn('hcaptcha');
    expect((await send(provider.mint(SITE.key))).status).toBe(200);
    expect(provider.verifications.at(-1)?.sitekey).toBe(SITE.key);
  });

  it('turning captcha off lifts the requirement', async () => {
    expectOk(await setCaptcha({ body: { enabled: false } }));
    expect(await bootstrap()).toEqual({ enabled: false });
    expect((await send()).status).toBe(200);
  });
});
