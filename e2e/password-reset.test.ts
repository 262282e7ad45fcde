// The password reset page in Chromium: strength advice, and the ways out of a link that cannot
// be used.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { DEMO_ORG_SLUG } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';

const env = useBrowserAndDemo();

/** A fresh member of Acme Corp with a password, created as the host's backend would. */
async function memberWithPassword(prefix: string): Promise<string> {
  const admin = env.demo.app.gatehouse;
  const org = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
  if (!org) throw new Error('the demo has no acme organization');
  const email = `${prefix}-${Date.now()}@acme.test`;
  const member = await admin.createMember(env.demo.projectId, org.organization_id, {
    email_address: email,
  });
  await admin.setMemberPassword(env.demo.projectId, member.member_id, {
    password: 'Quartz-Lantern-Orbit-42',
  });
  return email;
}

/** Asks for a reset e-mail over the SDK API, as the widget does, and returns its link. */
async function resetLink(email: string): Promise<string> {
  const admin = env.demo.app.gatehouse;
  const org = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
  const token = env.demo.publicToken;
  const seen = await inboxIds(env.demo.url);
  const response = await fetch(`${env.demo.url}/sdk/v1/b2b/passwords/email/reset/start`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${token}:${token}`).toString('base64')}`,
      'content-type': 'application/json',
      origin: env.demo.url,
    },
    body: JSON.stringify({ organization_id: org?.organization_id, email_address: email }),
  });
  expect(response.status).toBe(200);
  return (await waitForEmailLink(env.demo.url, email, 'multi_tenant_passwords', seen)).link;
}

async function openResetForm(link: string): Promise<Page> {
  const page = await env.browser.newPage();
  await page.goto(link);
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  return page;
}

test('a weak password gets words: the check shows while it runs, then what would help', async () => {
  const page = await openResetForm(await resetLink(await memberWithPassword('strength')));
  const field = page.getByLabel('New password', { exact: true });
  const submit = page.getByRole('button', { name: 'Continue' });

  // Score 2 with no warning: zxcvbn's suggestion is what the person reads.
  await field.fill('orbitlantern');
  await page.getByText('Checking your password…').waitFor();
  expect(await submit.isDisabled()).toBe(true);
  await page.getByText('Add more words that are less common.').waitFor();
  const meter = page.getByRole('meter', { name: 'Password strength' });
  expect(await meter.getAttribute('aria-valuenow')).toBe('2');
  expect(await page.getByText('Checking your password…').count()).toBe(0);
  expect(await submit.isDisabled()).toBe(true);
  await page.close();
});

test('the reset page opened without a link says where the link comes from', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app/reset`);
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  await page
    .getByText(/To set a new password, open the link in your password reset email/)
    .waitFor();
  expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
  expect(await page.getByText('This call needs a session.').count()).toBe(0);
  await page.close();
});

test('a used reset link says so as it opens, with how to get a new one', async () => {
  const link = await resetLink(await memberWithPassword('used-link'));
  const first = await openResetForm(link);
  await first.getByLabel('New password', { exact: true }).fill('Velvet-Harbor-Compass-77');
  const submit = first.getByRole('button', { name: 'Continue' });
  await expect.poll(() => submit.isEnabled()).toBe(true);
  await submit.click();
  await first.getByText('Success!').waitFor();
  await first.close();

  // Opened again: nothing to type, the page says the link is spent.
  const again = await env.browser.newPage();
  await again.goto(link);
  await again
    .getByText(/This password reset link is unknown, has expired or has already been used/)
    .waitFor();
  expect(await again.getByLabel('New password', { exact: true }).count()).toBe(0);
  expect(await again.getByText('This call needs a session.').count()).toBe(0);
  await again.close();
});

test("'Check your email!' after a reset request names the address and leads back", async () => {
  const email = await memberWithPassword('check-email');
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app/org/${DEMO_ORG_SLUG}`);
  await page.getByText('Use a password instead').click();
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Having trouble signing in? Get help' }).click();
  await page.getByRole('heading', { name: 'Check your email for help signing in!' }).waitFor();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('heading', { name: 'Check your email!' }).waitFor();
  await page.getByText(`An email was sent to ${email}.`).waitFor();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await page.close();
});

test('the Error screen leads back to the start', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app?stytch_token_type=discovery&token=not-a-real-token`);
  await page.getByRole('heading', { name: 'Looks like there was an error!' }).waitFor();
  await page.getByRole('button', { name: 'Back to sign in' }).click();
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page.close();
});
