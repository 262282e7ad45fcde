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
