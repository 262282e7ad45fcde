// Password resets in Chromium, with real e-mail through the dev inbox: a password the organization
// requires be reset, typed right, sends the reset e-mail from the sign-in form; a discovery reset
// link sets a new password on the reset page and leads to the organizations of the address.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { DEMO_ORG_SLUG } from '@gatehouse/demo';
import { inboxIds, manageDemo, useBrowserAndDemo, waitForEmailLink } from './harness.js';

const env = useBrowserAndDemo();
const OLD_PASSWORD = 'Quartz-Lantern-Orbit-42';

/** A fresh member of Acme Corp with a password, created as the host's backend would. */
async function memberWithPassword(prefix: string) {
  const admin = env.demo.app.gatehouse;
  const org = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
  if (!org) throw new Error('the demo has no acme organization');
  const email = `${prefix}-${Date.now()}@acme.test`;
  const member = await admin.createMember(env.demo.projectId, org.organization_id, {
    email_address: email,
  });
  await admin.setMemberPassword(env.demo.projectId, member.member_id, { password: OLD_PASSWORD });
  return { email, organizationId: org.organization_id };
}

/** Types a new password on the reset page and submits it once the strength check allows. */
async function setNewPassword(page: Page, password: string) {
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill(password);
  const submit = page.getByRole('button', { name: 'Continue' });
  await expect.poll(() => submit.isEnabled(), { timeout: 15_000 }).toBe(true);
  await submit.click();
}

test('a password the organization requires be reset sends the reset e-mail, whose link sets a new one', async () => {
  const { email, organizationId } = await memberWithPassword('required');
  await manageDemo(env.demo, 'POST', '/v1/b2b/passwords/email/require_reset', {
    email_address: email,
    organization_id: organizationId,
  });
  const seen = await inboxIds(env.demo.url);

  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app/org/${DEMO_ORG_SLUG}`);
  await page.getByText('Use a password instead').click();
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(OLD_PASSWORD);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('heading', { name: 'Check your email!' }).waitFor({ timeout: 15_000 });
  await page.getByText(`An email was sent to ${email}.`).waitFor();
  await page
    .getByText('Your organization requires a new password before you can log in.', {
      exact: false,
    })
    .waitFor();

  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_passwords', seen);
  await page.goto(link);
  await setNewPassword(page, 'Velvet-Harbor-Kettle-58');
  await page.getByText('Success!').waitFor({ timeout: 15_000 });
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toContain(`Signed in as ${email}`);
  await page.close();
});

test('a discovery reset link sets the password, then Discovery lists the organizations to enter', async () => {
  const { email } = await memberWithPassword('discovery-reset');
  const seen = await inboxIds(env.demo.url);
  const token = env.demo.publicToken;
  // The start as the provider's browser SDK sends it (passwords.discovery.resetByEmailStart).
  const started = await fetch(`${env.demo.url}/sdk/v1/b2b/passwords/discovery/reset/start`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${token}:${token}`).toString('base64')}`,
      'content-type': 'application/json',
      origin: env.demo.url,
    },
    body: JSON.stringify({ email_address: email }),
  });
  expect(started.status).toBe(200);
  const { link } = await waitForEmailLink(env.demo.url, email, 'discovery', seen);

  const page = await env.browser.newPage();
  await page.goto(link);
  await setNewPassword(page, 'Copper-Meadow-Signal-31');
  await page.getByText('Select an organization to continue').waitFor({ timeout: 15_000 });
  expect(new URL(page.url()).search).toBe('');
  await page.getByRole('button', { name: /Acme Corp/ }).click();
  await page.getByText('Success!').waitFor({ timeout: 15_000 });
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toContain(`Signed in as ${email}`);

  // The link is spent: opened again, the new password cannot be set twice.
  const again = await env.browser.newPage();
  await again.goto(link);
  await setNewPassword(again, 'Another-Fresh-Password-64');
  await again
    .getByText(/This password reset link is unknown, has expired or has already been used/)
    .waitFor({ timeout: 15_000 });
  await again.close();
  await page.close();
});
