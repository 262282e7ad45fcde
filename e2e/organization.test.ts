import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import {
  inboxIds,
  launchBrowser,
  startTestDemo,
  waitForEmailLink,
  type TestDemo,
} from './harness.js';

let browser: Browser;
let demo: TestDemo;

beforeAll(async () => {
  [browser, demo] = await Promise.all([launchBrowser(), startTestDemo()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

async function signInToAcme(page: Page, email: string): Promise<void> {
  await page.goto(`${demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  const seen = await inboxIds(demo.url);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();

  const { link } = await waitForEmailLink(demo.url, email, 'multi_tenant_magic_links', seen);
  expect(new URL(link).pathname).toBe('/_app/org/acme');
  await page.goto(link);
  await page.getByText('Success!').waitFor();
  expect(new URL(page.url()).search).toBe('');
}

test('organization flow: a member of acme signs in with a magic link', async () => {
  const page = await browser.newPage();
  await signInToAcme(page, DEMO_ADMIN_EMAIL);
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toBe(`Signed in as ${DEMO_ADMIN_EMAIL} (Acme Corp)`);
  await page.close();
});

test('a new e-mail at acme.test joins Acme by JIT provisioning', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `newcomer-${Date.now()}@acme.test`;
  await signInToAcme(page, email);
  await page.goto(`${demo.url}/account`);
  expect(await page.locator('[data-field="Email"]').textContent()).toBe(email);
  expect(await page.locator('[data-field="Organization"]').textContent()).toBe('Acme Corp');
  const member = await demo.app.gatehouse.getMemberByEmail(
    demo.projectId,
    (await demo.app.gatehouse.getOrganizationBySlug(demo.projectId, 'acme'))!.organization_id,
    email,
  );
  expect(member?.status).toBe('active');
  await context.close();
});

test('an e-mail outside acme.test is told it has no access', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${demo.url}/_app/org/acme`);
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
  const page = await browser.newPage();
  await page.goto(`${demo.url}/_app/org/no-such-org`);
  await page
    .getByText(
      'The organization you are looking for could not be found. If you think this is a mistake, contact your admin.',
    )
    .waitFor();
  await page.close();
});
