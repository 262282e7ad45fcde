// Captcha in the client: nothing loaded while captcha is off; when bootstrap turns it on, the
// provider's script is injected once and each D call (only those) carries a fresh LOGIN token.
// The providers' browser APIs are installed on window as their scripts would define them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_TOKEN, bootstrapData } from '@gatehouse/testing';
import { GatehouseCaptchaError } from './errors.js';
import { installFakeApi, ok } from './test/fake-api.js';
import { cleanup, makeClient } from './test/harness.js';

const BOOTSTRAP = `/projects/bootstrap/${PUBLIC_TOKEN}`;
const SEND = '/b2b/magic_links/email/discovery/send';
const SEARCH = '/b2b/organizations/search';
const SITE_KEY = 'site-key-test';
const ack = () => ok({ request_id: 'r', status_code: 200 });

function captchaOn() {
  return installFakeApi({
    [BOOTSTRAP]: () =>
      ok(bootstrapData({ captcha_settings: { enabled: true, siteKey: SITE_KEY } })),
    [SEND]: ack,
    [SEARCH]: () => ok({ organization: null }),
  });
}

const scripts = () =>
  document.querySelectorAll<HTMLScriptElement>('script[data-gatehouse-captcha]');

afterEach(() => {
  delete window.grecaptcha;
  delete window.turnstile;
  delete window.hcaptcha;
  scripts().forEach((s) => s.remove());
  cleanup();
});

describe('captcha off', () => {
  it('loads nothing and sends no token', async () => {
    const api = installFakeApi({ [SEND]: ack });
    const client = makeClient();
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    expect(scripts()).toHaveLength(0);
    expect(api.requests.find((r) => r.path === SEND)?.body).not.toHaveProperty('captcha_token');
  });
});

describe('captcha on', () => {
  it('reCAPTCHA by default: a fresh LOGIN token on each D call, and only on those', async () => {
    const api = captchaOn();
    let n = 0;
    const execute = vi.fn(async (_key: string, _o: { action: string }) => `token-${(n += 1)}`);
    window.grecaptcha = { ready: (callback) => callback(), execute };
    const client = makeClient();
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    await client.organization.getBySlug({ organization_slug: 'acme' });
    expect(execute.mock.calls).toEqual([
      [SITE_KEY, { action: 'LOGIN' }],
      [SITE_KEY, { action: 'LOGIN' }],
    ]);
    const sends = api.requests.filter((r) => r.path === SEND);
    expect(sends.map((r) => (r.body as { captcha_token?: string }).captcha_token)).toEqual([
      'token-1',
      'token-2',
    ]);
    expect(api.requests.find((r) => r.path === SEARCH)?.body).not.toHaveProperty('captcha_token');
  });

  it('prefers reCAPTCHA Enterprise when the script defines it', async () => {
    const api = captchaOn();
    const plain = vi.fn(async () => 'plain');
    const enterprise = vi.fn(async () => 'enterprise');
    window.grecaptcha = {
      ready: (callback) => callback(),
      execute: plain,
      enterprise: { ready: (callback) => callback(), execute: enterprise },
    };
    const client = makeClient();
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    expect(plain).not.toHaveBeenCalled();
    expect(api.requests.find((r) => r.path === SEND)?.body).toMatchObject({
      captcha_token: 'enterprise',
    });
  });

  it('Turnstile: renders a widget for the site key and action, removed once it answers', async () => {
    const api = captchaOn();
    const render = vi.fn(
      (host: HTMLElement, params: { sitekey: string; callback?: (t: string) => void }) => {
        expect(host.isConnected).toBe(true);
        setTimeout(() => params.callback?.('turnstile-token'), 0);
        return 'widget-1';
      },
    );
    const remove = vi.fn();
    window.turnstile = { render, remove };
    const client = makeClient({ captcha: { provider: 'turnstile' } });
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    expect(render.mock.calls[0]?.[1]).toMatchObject({ sitekey: SITE_KEY, action: 'LOGIN' });
    expect(remove).toHaveBeenCalledWith('widget-1');
    expect(document.querySelector('[data-gatehouse-captcha-widget]')).toBeNull();
    expect(api.requests.find((r) => r.path === SEND)?.body).toMatchObject({
      captcha_token: 'turnstile-token',
    });
  });

  it('hCaptcha: executes an invisible widget', async () => {
    const api = captchaOn();
    window.hcaptcha = {
      render: vi.fn(() => 'h1'),
      execute: vi.fn(async () => ({ response: 'hcaptcha-token' })),
      remove: vi.fn(),
    };
    const client = makeClient({ captcha: { provider: 'hcaptcha' } });
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    expect(api.requests.find((r) => r.path === SEND)?.body).toMatchObject({
      captcha_token: 'hcaptcha-token',
    });
  });

  it('injects the script with the site key, and rejects, sending nothing, when it does not load', async () => {
    const api = captchaOn();
    const client = makeClient({
      captcha: { scriptUrl: 'https://captcha.test/api.js?k={siteKey}' },
    });
    const added: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const node of r.addedNodes) {
          if (node instanceof HTMLScriptElement) added.push(node.src);
        }
      }
    });
    observer.observe(document.head, { childList: true });
    // The test DOM loads no script files: the script fails as an unreachable provider would.
    const failed = client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    await expect(failed).rejects.toBeInstanceOf(GatehouseCaptchaError);
    await expect(failed).rejects.toThrow(`https://captcha.test/api.js?k=${SITE_KEY} did not load`);
    observer.disconnect();
    expect(added).toEqual([`https://captcha.test/api.js?k=${SITE_KEY}`]);
    expect(api.requests.filter((r) => r.path === SEND)).toHaveLength(0);
    expect(scripts()).toHaveLength(0);

    // A later call tries again.
    window.grecaptcha = { ready: (callback) => callback(), execute: async () => 'later' };
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    expect(api.requests.filter((r) => r.path === SEND)).toHaveLength(1);
  });

  it('rejects with GatehouseCaptchaError when the challenge fails', async () => {
    captchaOn();
    window.turnstile = {
      render: (_host, params) => {
        setTimeout(() => params['error-callback']?.('300030'), 0);
        return 'w';
      },
      remove: () => undefined,
    };
    const client = makeClient({ captcha: { provider: 'turnstile' } });
    await expect(
      client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' }),
    ).rejects.toThrow(/captcha could not be completed.*300030/);
  });
});
