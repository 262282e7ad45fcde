// The admin portal's member actions in the browser, with the keyboard alone: the demo's admin
// resets a member's second factor and removes their password, deactivates and reactivates them,
// and resends then revokes an invitation, each after what the portal showed, with axe finding
// nothing at a desktop's and a phone's width; the server holds what the portal showed.
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { MemberResult } from '@gatehouse/protocol';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { inboxIds, manageDemo, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { pressOn, signInToAcmeByLink, tabTo, typeInto } from './steps.js';

const env = useBrowserAndDemo();

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
};
const far = { max: 200 };

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

/** Acme Corp's id. */
async function acmeId(): Promise<string> {
  const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  return acme!.organization_id;
}

/** Tabs to a button and presses Enter, however far down the list it is. */
async function press(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target, far);
  await page.keyboard.press('Enter');
}

describe.each(Object.entries(VIEWPORTS))('member actions at %s width', (label, viewport) => {
  test('an admin resets a second factor and a password, deactivates, reactivates, and manages an invitation', async () => {
    const organizationId = await acmeId();
    const path = `/v1/b2b/organizations/${organizationId}/members`;
    const email = `managed-${label}-${Date.now()}@acme.test`;
    const { member_id: memberId } = await manageDemo<MemberResult>(env.demo, 'POST', path, {
      email_address: email,
    });
    await manageDemo(env.demo, 'PUT', `${path}/${memberId}`, {
      mfa_phone_number: '+14155550123',
      mfa_phone_number_verified: true,
    });
    await manageDemo(env.demo, 'PUT', `${path}/${memberId}/password`, {
      password: 'a passphrase the admin will remove 2026',
    });
    const stored = async () =>
      (await manageDemo<MemberResult>(env.demo, 'GET', `${path}/${memberId}`)).member;

    const context = await env.browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, DEMO_ADMIN_EMAIL);
    await page.goto(`${env.demo.url}/_app/admin`);
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await typeInto(page, page.getByLabel('Search by email or name'), email);
    await page.keyboard.press('Enter');
    const row = page.getByRole('listitem', { name: email });
    await row.getByText('Second factor: text message').waitFor();

    // The second factor, after a confirmation.
    await press(page, row.getByRole('button', { name: 'Reset MFA' }));
    await row.getByRole('button', { name: 'Confirm' }).waitFor();
    await expectNoAxeViolations(page, `a confirmation (${label})`);
    await page.keyboard.press('Enter');
    await page.getByText(`MFA of ${email} reset`).waitFor();
    expect((await stored()).mfa_phone_number).toBe('');

    // The password, after a confirmation.
    await press(page, row.getByRole('button', { name: 'Remove password' }));
    await press(page, row.getByRole('button', { name: 'Confirm' }));
    await page.getByText(`Password of ${email} removed`).waitFor();
    expect((await stored()).member_password_id).toBe('');

    // Deactivated, then reactivated.
    await press(page, row.getByRole('button', { name: 'Deactivate' }));
    await press(page, row.getByRole('button', { name: 'Confirm' }));
    await page.getByText(`${email} deactivated`).waitFor();
    await row.getByText('Deactivated', { exact: true }).waitFor();
    expect((await stored()).status).toBe('deleted');
    await press(page, row.getByRole('button', { name: 'Reactivate' }));
    await page.getByText(`${email} reactivated`).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    expect((await stored()).status).toBe('active');

    // An invitation, sent again, then revoked.
    const invited = `invited-${label}-${Date.now()}@acme.test`;
    await manageDemo(env.demo, 'POST', '/v1/b2b/magic_links/email/invite', {
      organization_id: organizationId,
      email_address: invited,
    });
    await page.getByLabel('Search by email or name').fill('');
    await typeInto(page, page.getByLabel('Search by email or name'), invited);
    await page.keyboard.press('Enter');
    const invitee = page.getByRole('listitem', { name: invited });
    await invitee.getByText('Invited', { exact: true }).waitFor();
    const seen = await inboxIds(env.demo.url);
    await press(page, invitee.getByRole('button', { name: 'Resend invitation' }));
    await page.getByText(`Invitation sent again to ${invited}`).waitFor();
    await waitForEmailLink(env.demo.url, invited, 'multi_tenant_magic_links', seen);
    await pressOn(page, invitee.getByRole('button', { name: 'Revoke invitation' }));
    await page.getByText(`Invitation of ${invited} revoked`).waitFor();
    await invitee.getByText('Deactivated', { exact: true }).waitFor();
    await expectNoAxeViolations(page, `the members after every action (${label})`);
    await context.close();
  }, 150_000);
});
