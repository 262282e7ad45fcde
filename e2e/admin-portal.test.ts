// The admin portal in the browser: the demo's admin signs in, opens /_app/admin, searches the
// members, invites one with the keyboard alone and makes them an admin, at a desktop's and a
// phone's width, with axe finding nothing; a plain member sees no admin action.
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { MemberResult } from '@gatehouse/protocol';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { manageDemo, useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, tabTo, typeInto } from './steps.js';

const env = useBrowserAndDemo();

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
};

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

async function acmeMember(memberId: string) {
  const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  const { member } = await manageDemo<MemberResult>(
    env.demo,
    'GET',
    `/v1/b2b/organizations/${acme!.organization_id}/members/${memberId}`,
  );
  return member;
}

/** Whether the page is wider than its viewport (a phone would scroll sideways). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe.each(Object.entries(VIEWPORTS))('the admin portal at %s width', (label, viewport) => {
  test('an admin searches, invites with the keyboard alone and changes a role', async () => {
    const context = await env.browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, DEMO_ADMIN_EMAIL);
    // The sign-in page links to the admin page once signed in.
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`${env.demo.url}/_app/admin`);
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await page.getByRole('listitem', { name: DEMO_ADMIN_EMAIL }).waitFor();
    await expectNoAxeViolations(page, `the admin portal (${label})`);
    expect(await overflows(page), label).toBe(false);

    // Search by part of the address.
    await page.getByLabel('Search by email or name').fill('admin@');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByText('1 of 1 members').count()).toBe(1);
    await page.getByRole('listitem', { name: DEMO_ADMIN_EMAIL }).waitFor();

    // Invite with the keyboard alone.
    const email = `invitee-${label}-${Date.now()}@invited.example`;
    const form = page.locator('form', {
      has: page.getByRole('heading', { name: 'Invite a member' }),
    });
    await typeInto(page, form.getByLabel('Email'), email);
    await typeInto(page, form.getByLabel('Name (optional)'), 'Grace');
    await pressOn(page, form.getByRole('button', { name: 'Send invitation' }));
    await page.getByText(`Invitation sent to ${email}`).waitFor();
    const row = page.getByRole('listitem', { name: email });
    await row.getByText('Invited', { exact: true }).waitFor();
    await expectNoAxeViolations(page, `the admin portal after an invitation (${label})`);

    // Make the invited member an admin.
    await tabTo(page, row.getByRole('button', { name: 'Change roles' }));
    await page.keyboard.press('Enter');
    const adminBox = row.getByRole('checkbox', { name: /^admin/ });
    await expect.poll(() => adminBox.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await pressOn(page, row.getByRole('button', { name: 'Save' }));
    await page.getByText(`Roles of ${email} saved`).waitFor();
    await expect.poll(() => row.textContent()).toContain('member, admin');
    expect(await overflows(page), label).toBe(false);

    // The server holds what the portal showed.
    const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
    const invited = await env.demo.app.gatehouse.getMemberByEmail(
      env.demo.projectId,
      acme!.organization_id,
      email,
    );
    expect(invited?.status).toBe('invited');
    expect(invited?.name).toBe('Grace');
    expect(invited?.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    await context.close();
  });
});

test.each(Object.entries(VIEWPORTS))(
  'every section of an admin passes axe and fits the %s width',
  async (label, viewport) => {
    const context = await env.browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, DEMO_ADMIN_EMAIL);
    await page.goto(`${env.demo.url}/_app/admin`);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const sections = {
      Members: 'Members',
      Settings: 'Organization settings',
      'Single sign-on': 'Single sign-on connections',
      Domains: 'Email domains',
      Sessions: 'Active sessions',
      'Your account': 'Your account',
    };
    for (const [tab, heading] of Object.entries(sections)) {
      await nav.getByRole('button', { name: tab }).click();
      await page.getByRole('heading', { name: heading }).waitFor();
      // Each section's content has loaded (its spinner is gone).
      await expect.poll(() => page.locator('.gh-admin .gh-spinner').count()).toBe(0);
      await expectNoAxeViolations(page, `${tab} (${label})`);
      expect(await overflows(page), `${tab} (${label})`).toBe(false);
    }
    await context.close();
  },
  // Six sections, each loaded and checked by axe: longer than one flow on a loaded machine.
  180_000,
);

test('a plain member sees no members, no admin action, no SSO section, and their own sessions', async () => {
  const email = `plain-${Date.now()}@acme.test`;
  const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  const created = await manageDemo<MemberResult>(
    env.demo,
    'POST',
    `/v1/b2b/organizations/${acme!.organization_id}/members`,
    { email_address: email },
  );
  expect((await acmeMember(created.member_id)).roles.map((r) => r.role_id)).toEqual(['member']);
  const context = await env.browser.newContext({ viewport: VIEWPORTS.phone });
  const page = await context.newPage();
  await signIn(page, email);
  await page.goto(`${env.demo.url}/_app/admin`);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  // As the provider's `stytch_member`, the member role holds no `stytch.member` `search`.
  await expect
    .poll(() => nav.getByRole('button').allTextContents())
    .toEqual(['Settings', 'Sessions', 'Your account']);
  expect(await page.getByRole('listitem', { name: DEMO_ADMIN_EMAIL }).count()).toBe(0);
  for (const name of [
    'Send invitation',
    'Change roles',
    'Deactivate',
    'Reactivate',
    'Resend invitation',
    'Revoke invitation',
  ]) {
    expect(await page.getByRole('button', { name }).count(), name).toBe(0);
  }
  await nav.getByRole('button', { name: 'Settings' }).click();
  await page
    .getByText('Only members allowed to change the organization can edit these settings.')
    .waitFor();
  expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  // Their own sessions only, this one marked.
  await nav.getByRole('button', { name: 'Sessions' }).click();
  await page.getByRole('heading', { name: 'Your active sessions' }).waitFor();
  await page.getByText('This session').waitFor();
  await expectNoAxeViolations(page, 'the admin portal of a plain member');
  await context.close();
});
