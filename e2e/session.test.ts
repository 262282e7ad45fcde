import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectLoggedIn, pressOn, signInToAcmeByLink, typeInto } from './steps.js';

const env = useBrowserAndDemo();

test('a reload keeps the session, and signing out in one tab signs out the other', async () => {
  const context = await env.browser.newContext();
  const first = await context.newPage();
  await signInToAcmeByLink(first, env.demo.url);

  const signedIn = `Signed in as ${DEMO_ADMIN_EMAIL} (Acme Corp)`;
  await first.reload();
  await expect.poll(() => first.locator('#session-status').textContent()).toBe(signedIn);
  await first.getByText('Success!').waitFor();
  const cookies = await context.cookies();
  expect(cookies.map((c) => c.name)).toEqual(
    expect.arrayContaining(['gatehouse_session', 'gatehouse_session_jwt']),
  );

  const second = await context.newPage();
  await second.goto(`${env.demo.url}/_app/org/acme`);
  await expect.poll(() => second.locator('#session-status').textContent()).toBe(signedIn);

  await first.getByRole('button', { name: 'Sign out' }).click();
  await expect.poll(() => first.locator('#session-status').textContent()).toBe('Not signed in');
  await expect.poll(() => second.locator('#session-status').textContent()).toBe('Not signed in');
  await second.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  expect((await context.cookies()).map((c) => c.name)).not.toContain('gatehouse_session');

  const account = await context.newPage();
  const response = await account.goto(`${env.demo.url}/account`);
  expect(response?.status()).toBe(401);
  await context.close();
});

test('signing in and out with the keyboard alone', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), DEMO_ADMIN_EMAIL);
  await page.keyboard.press('Enter');
  const { link } = await waitForEmailLink(
    env.demo.url,
    DEMO_ADMIN_EMAIL,
    'multi_tenant_magic_links',
    seen,
  );
  await page.goto(link);
  await expectLoggedIn(page, DEMO_ADMIN_EMAIL, 'Acme Corp');
  await page.reload();
  await expectLoggedIn(page, DEMO_ADMIN_EMAIL, 'Acme Corp');

  await pressOn(page, page.getByRole('button', { name: 'Sign out' }));
  await expect.poll(() => page.locator('#session-status').textContent()).toBe('Not signed in');
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await context.close();
});
