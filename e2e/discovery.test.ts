import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectNoAxeViolations } from './a11y.js';
import { expectLoggedIn, pressOn, typeInto } from './steps.js';

const env = useBrowserAndDemo();

test('discovery: e-mail, link from the inbox, pick Acme, signed in, account page shows the member', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await expect.poll(() => page.getByRole('heading', { name: 'Sign up or log in' }).count()).toBe(1);

  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  await page.getByText(DEMO_ADMIN_EMAIL).first().waitFor();

  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery');
  await page.goto(link);
  await page.getByText('Select an organization to continue').waitFor();
  const acme = page.getByRole('button', { name: /Acme Corp/ });
  await acme.waitFor();
  await acme.click();

  await page.getByText('Success!').waitFor();
  await page.getByText('You have successfully logged in.').waitFor();
  expect(new URL(page.url()).search).toBe('');
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toContain(`Signed in as ${DEMO_ADMIN_EMAIL}`);

  await page.goto(`${env.demo.url}/account`);
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  expect(await page.locator('[data-field="Email"]').textContent()).toBe(DEMO_ADMIN_EMAIL);
  expect(await page.locator('[data-field="Organization"]').textContent()).toBe('Acme Corp');
  await page.close();
});

test('a used discovery link shows the error screen', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app`);
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);
  const redeemed = await fetch(`${env.demo.url}/sdk/v1/b2b/magic_links/discovery/authenticate`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${env.demo.publicToken}:${env.demo.publicToken}`)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ discovery_magic_links_token: new URL(link).searchParams.get('token') }),
  });
  expect(redeemed.status).toBe(200);

  await page.goto(link);
  await page.getByText('Looks like there was an error!').waitFor();
  await page
    .getByText('Something went wrong. Try again later or contact your admin for help.')
    .waitFor();
  await page.close();
});

test('discovery with the keyboard alone', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await expectNoAxeViolations(page, 'Main', '.gh-root');
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), DEMO_ADMIN_EMAIL);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await expectNoAxeViolations(page, 'EmailConfirmation', '.gh-root');

  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);
  await page.goto(link);
  await page.getByText('Select an organization to continue').waitFor();
  await expectNoAxeViolations(page, 'Discovery', '.gh-root');
  await pressOn(page, page.getByRole('button', { name: /Acme Corp/ }));
  await expectLoggedIn(page, DEMO_ADMIN_EMAIL, 'Acme Corp');
  await expectNoAxeViolations(page, 'LoggedIn', '.gh-root');
  await context.close();
});
