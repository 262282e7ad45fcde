import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectLoggedIn, pressOn, typeInto } from './steps.js';

const env = useBrowserAndDemo();

async function signInToAcme(page: Page, email: string): Promise<void> {
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();

  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_magic_links', seen);
  expect(new URL(link).pathname).toBe('/_app/org/acme');
  await page.goto(link);
  await page.getByText('Success!').waitFor();
  expect(new URL(page.url()).search).toBe('');
}

test('organization flow: a member of acme signs in with a magic link', async () => {
  const page = await env.browser.newPage();
  await signInToAcme(page, DEMO_ADMIN_EMAIL);
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toBe(`Signed in as ${DEMO_ADMIN_EMAIL} (Acme Corp)`);
  await page.close();
});

test('a new e-mail at acme.test joins Acme by JIT provisioning', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const email = `newcomer-${Date.now()}@acme.test`;
  await signInToAcme(page, email);
  await page.goto(`${env.demo.url}/account`);
  expect(await page.locator('[data-field="Email"]').textContent()).toBe(email);
  expect(await page.locator('[data-field="Organization"]').textContent()).toBe('Acme Corp');
  const member = await env.demo.app.gatehouse.getMemberByEmail(
    env.demo.projectId,
    (await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme'))!
      .organization_id,
    email,
  );
  expect(member?.status).toBe('active');
  await context.close();
});

test('an e-mail outside acme.test is told it has no access', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await page.getByLabel(/email/i).fill('outsider@elsewhere.test');
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page
    .getByText(
      'outsider@elsewhere.test does not have access to Acme Corp. If you think this is a mistake, contact your admin.',
    )
    .waitFor();
  await context.close();
});

test('an unknown organization slug shows the organization error', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app/org/no-such-org`);
  await page
    .getByText(
      'The organization you are looking for could not be found. If you think this is a mistake, contact your admin.',
    )
    .waitFor();
  await page.close();
});

test('the organization page finds its organization by either host name, and says nothing of signing out', async () => {
  const port = new URL(env.demo.url).port;
  for (const host of ['127.0.0.1', 'localhost']) {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://${host}:${port}/_app/org/acme`);
    await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
    await page.getByRole('button', { name: 'Continue with email' }).waitFor();
    expect(await page.locator('#session-status').textContent()).toBe('Not signed in');
    // Not even hidden: the header's text says only that nobody is signed in.
    const header = (await page.locator('nav').textContent()) ?? '';
    expect(header).toContain('Not signed in');
    expect(header).not.toContain('Sign out');
    expect(header).not.toContain('Account');
    await context.close();
  }
});

test('organization flow with the keyboard alone', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), DEMO_ADMIN_EMAIL);
  await pressOn(page, page.getByRole('button', { name: 'Continue with email' }));
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  // 'Try again' leads back to the form, which keeps the address.
  await pressOn(page, page.getByRole('button', { name: 'Try again' }));
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Continue with email' }));
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();

  const { link } = await waitForEmailLink(
    env.demo.url,
    DEMO_ADMIN_EMAIL,
    'multi_tenant_magic_links',
    seen,
  );
  await page.goto(link);
  await expectLoggedIn(page, DEMO_ADMIN_EMAIL, 'Acme Corp');
  await context.close();
});
