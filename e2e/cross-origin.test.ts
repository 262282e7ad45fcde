import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { pressOn, typeInto } from './steps.js';

const env = useBrowserAndDemo();
let partnerSite: Server;
let port: number;

/** A third-party host page that embeds the widget from the Gatehouse origin. */
function hostPage(gatehouseUrl: string, publicToken: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner app</title></head>
<body><h1>Partner app</h1><div id="login"></div>
<script type="module" src="${gatehouseUrl}/assets/gatehouse-widget.js"></script>
<script type="module">
  Gatehouse.mount('#login', {
    publicToken: ${JSON.stringify(publicToken)},
    baseUrl: ${JSON.stringify(gatehouseUrl)},
    config: {
      products: ['emailMagicLinks'],
      authFlowType: 'discovery',
      emailMagicLinksOptions: { discoveryRedirectURL: location.origin + '/' },
    },
  });
</script></body></html>`;
}

beforeAll(async () => {
  partnerSite = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(hostPage(env.demo.url, env.demo.publicToken));
  });
  await new Promise<void>((resolve) => partnerSite.listen(0, '127.0.0.1', resolve));
  port = (partnerSite.address() as AddressInfo).port;
  const partner = `http://partner.example.test:${port}`;
  await env.demo.app.gatehouse.updateProject(env.demo.projectId, {
    authorizedOrigins: [partner],
    redirectUrls: {
      discovery: [`${env.demo.url}/_app`, `http://localhost:${port}/`, `${partner}/`],
    },
  });
});

afterAll(async () => {
  await new Promise((resolve) => partnerSite?.close(resolve));
});

test('the widget signs in on a page of another origin', async () => {
  // The page is served from localhost, the server from 127.0.0.1: two origins, so every call is
  // cross-origin. (Loopback hosts keep the cookies' Secure flag off over plain http.)
  const page = await env.browser.newPage();
  const host = `http://localhost:${port}`;
  await page.goto(`${host}/`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  const [send] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/b2b/magic_links/email/discovery/send')),
    page.getByRole('button', { name: 'Continue with email' }).click(),
  ]);
  expect(send.status()).toBe(200);
  expect(send.headers()['access-control-allow-origin']).toBe(host);
  await page.getByText('Check your email').waitFor();

  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);
  expect(new URL(link).origin).toBe(host);
  await page.goto(link);
  await page.getByRole('button', { name: /Acme Corp/ }).click();
  await page.getByText('Success!').waitFor();
  const cookies = await page.context().cookies(host);
  expect(cookies.map((c) => c.name)).toContain('gatehouse_session');
  await page.close();
});

test('an origin on the project allow-list may call the API', async () => {
  const page = await env.browser.newPage();
  const partner = `http://partner.example.test:${port}`;
  await page.goto(`${partner}/`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  const [send] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/b2b/magic_links/email/discovery/send')),
    page.getByRole('button', { name: 'Continue with email' }).click(),
  ]);
  expect(send.status()).toBe(200);
  expect(send.headers()['access-control-allow-origin']).toBe(partner);
  await page.getByText('Check your email').waitFor();
  await page.close();
});

test('an unauthorized origin is refused', async () => {
  const page = await env.browser.newPage();
  await page.goto(`http://evil.example.test:${port}/`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  // No project trusts the origin, so its preflight gets no allow headers: the browser never sends
  // the call (a page of an origin some other project trusts would get 403 unauthorized_origin).
  const [send] = await Promise.all([
    page.waitForEvent('requestfailed', (r) =>
      r.url().endsWith('/b2b/magic_links/email/discovery/send'),
    ),
    page.getByRole('button', { name: 'Continue with email' }).click(),
  ]);
  expect(await send.response()).toBeNull();
  await page.getByRole('alert').first().waitFor();
  expect(await page.getByText('Check your email').count()).toBe(0);
  await page.close();
});

test('the widget on another origin, with the keyboard alone', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const host = `http://localhost:${port}`;
  await page.goto(`${host}/`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), DEMO_ADMIN_EMAIL);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);
  await page.goto(link);
  await pressOn(page, page.getByRole('button', { name: /Acme Corp/ }));
  await page.getByText('Success!').waitFor();
  expect((await context.cookies(host)).map((c) => c.name)).toContain('gatehouse_session');
  await context.close();
});
