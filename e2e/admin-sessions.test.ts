// The admin portal's sessions in the browser: a member signs in from two browsers, and the demo's
// admin sees both sessions in the organization's list (member, how they signed in, address and
// browser), ends one, then all of that member's, with the keyboard alone and axe finding nothing,
// at a desktop's and a phone's width; the server holds what the portal showed.
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { MemberResult } from '@gatehouse/protocol';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { manageDemo, useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, tabTo } from './steps.js';

const env = useBrowserAndDemo();

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
};

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

/** The member's live sessions as the management API lists them. */
async function liveSessions(organizationId: string, memberId: string): Promise<string[]> {
  const query = new URLSearchParams({ organization_id: organizationId, member_id: memberId });
  const { member_sessions } = await manageDemo<{
    member_sessions: { member_session_id: string }[];
  }>(env.demo, 'GET', `/v1/b2b/sessions?${query}`);
  return member_sessions.map((s) => s.member_session_id);
}

const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe.each(Object.entries(VIEWPORTS))('the sessions section at %s width', (label, viewport) => {
  test("an admin ends one session of a member, then all of the member's", async () => {
    const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
    const organizationId = acme!.organization_id;
    const email = `sessions-${label}-${Date.now()}@acme.test`;
    const { member_id: memberId } = await manageDemo<MemberResult>(
      env.demo,
      'POST',
      `/v1/b2b/organizations/${organizationId}/members`,
      { email_address: email },
    );
    // The member signs in from two browsers.
    for (let i = 0; i < 2; i++) {
      const browser = await env.browser.newContext();
      await signIn(await browser.newPage(), email);
      await browser.close();
    }
    expect(await liveSessions(organizationId, memberId)).toHaveLength(2);

    const context = await env.browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, DEMO_ADMIN_EMAIL);
    await page.goto(`${env.demo.url}/_app/admin`);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await pressOn(page, nav.getByRole('button', { name: 'Sessions' }));
    await page.getByRole('heading', { name: 'Active sessions' }).waitFor();
    const rows = page.getByRole('listitem', { name: email });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const first = rows.first();
    await first.getByText('Signed in with email link').waitFor();
    await first.getByText('From 127.0.0.1').waitFor();
    await first.getByText(/HeadlessChrome|Chrome/).waitFor();
    await expectNoAxeViolations(page, `the organization's sessions (${label})`);
    expect(await overflows(page), label).toBe(false);

    // One session ends.
    const far = { max: 200 };
    await tabTo(
      page,
      first.getByRole('button', { name: new RegExp(`^End session of ${email}`) }),
      far,
    );
    await page.keyboard.press('Enter');
    await page.getByText('Session ended', { exact: true }).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await liveSessions(organizationId, memberId)).toHaveLength(1);

    // Then all of the member's.
    await tabTo(page, rows.getByRole('button', { name: `End all sessions of ${email}` }), far);
    await page.keyboard.press('Enter');
    await page.getByText(`All sessions of ${email} ended`).waitFor();
    await expect.poll(() => rows.count()).toBe(0);
    expect(await liveSessions(organizationId, memberId)).toEqual([]);
    // The admin's own session goes on.
    await page.getByText('This session').waitFor();
    await expectNoAxeViolations(page, `the sessions after ending them (${label})`);
    await context.close();
  }, 150_000);
});
