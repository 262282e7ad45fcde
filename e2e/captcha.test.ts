// Captcha in the browser: the demo project has Turnstile on, the page loads a local stand-in for
// Turnstile's script, and the server checks each token with the stand-in's siteverify.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { startCaptchaStandIn, type CaptchaStandIn } from '@gatehouse/testing/idp';
import { manageDemo, useBrowserAndDemo, waitForEmailLink } from './harness.js';

const SITE = { key: 'demo-turnstile-site', secret: 'demo-turnstile-secret' };
let provider: CaptchaStandIn;

beforeAll(async () => {
  provider = await startCaptchaStandIn();
  provider.addSite(SITE.key, SITE.secret);
});
const env = useBrowserAndDemo(() => ({
  server: { logger: false, captchaVerifyUrl: provider.verifyUrl },
  captcha: { provider: 'turnstile', scriptUrl: provider.scriptUrl('turnstile') },
}));

beforeAll(async () => {
  await manageDemo(env.demo, 'PUT', '/v1/b2b/captcha', {
    enabled: true,
    provider: 'turnstile',
    site_key: SITE.key,
    secret_key: SITE.secret,
  });
});

afterAll(async () => {
  await provider?.close();
});

test('discovery with Turnstile on: each D call carries a token the provider accepts once', async () => {
  const unsolved = await fetch(`${env.demo.url}/sdk/v1/b2b/magic_links/email/discovery/send`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${env.demo.publicToken}:${env.demo.publicToken}`)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email_address: DEMO_ADMIN_EMAIL }),
  });
  expect(unsolved.status).toBe(400);
  expect(((await unsolved.json()) as { error_type: string }).error_type).toBe('captcha_required');

  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  expect(provider.verifications).toHaveLength(1);
  expect(provider.verifications[0]?.secret).toBe(SITE.secret);

  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery');
  await page.goto(link);
  await page.getByText('Select an organization to continue').waitFor();
  await page.getByRole('button', { name: /Acme Corp/ }).click();
  await page.getByText('You have successfully logged in.').waitFor();
  // The send and the link's redemption: two tokens, each checked once.
  expect(provider.verifications).toHaveLength(2);
  expect(new Set(provider.verifications.map((v) => v.response)).size).toBe(2);
  await page.close();
});

test('a challenge that fails shows an error toast and sends nothing', async () => {
  // A site key the provider does not know: its script cannot mint a token.
  await manageDemo(env.demo, 'PUT', '/v1/b2b/captcha', { site_key: 'unknown-site' });
  const before = provider.verifications.length;
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page.getByLabel(/email/i).fill('someone@acme.test');
  await page.getByRole('button', { name: 'Continue with email' }).click();
  const failed = page
    .getByRole('alert')
    .filter({ hasText: "We couldn't complete the security check. Please try again." });
  // The words show under the form and, announced at once, as a toast.
  await failed.locator('xpath=self::*[@aria-live="assertive"]').waitFor();
  await failed.locator('xpath=self::p').waitFor();
  expect(provider.verifications.length).toBe(before);
  await context.close();
  await manageDemo(env.demo, 'PUT', '/v1/b2b/captcha', { site_key: SITE.key });
});
