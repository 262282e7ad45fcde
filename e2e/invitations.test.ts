// Invitations in the browser: an admin invites an address through the management API, the
// invitee follows the e-mail's link (once) or finds the invitation by discovery, and is signed in
// as an active member of the organization.
import { beforeAll, expect, test } from 'vitest';
import type { InviteResult, MemberResult } from '@gatehouse/protocol';
import { inboxIds, manageDemo, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectLoggedIn } from './steps.js';

const env = useBrowserAndDemo();
let acmeId: string;

beforeAll(async () => {
  const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  acmeId = acme!.organization_id;
});

/** The admin's invitation into Acme, as a host backend sends it; waits for its e-mail's link. */
async function inviteToAcme(email: string): Promise<{ memberId: string; link: string }> {
  const seen = await inboxIds(env.demo.url);
  const invited = await manageDemo<InviteResult>(
    env.demo,
    'POST',
    '/v1/b2b/magic_links/email/invite',
    {
      organization_id: acmeId,
      email_address: email,
    },
  );
  expect(invited.member_id).toBe(invited.member.member_id);
  expect(invited.member.email_address).toBe(email);
  expect(invited.organization.organization_id).toBe(acmeId);
  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_magic_links', seen);
  return { memberId: invited.member_id, link };
}

/** The member's status as the management API reads it. */
async function statusOf(memberId: string): Promise<string> {
  const { member } = await manageDemo<MemberResult>(
    env.demo,
    'GET',
    `/v1/b2b/organizations/${acmeId}/members/${memberId}`,
  );
  return member.status;
}

// Addresses outside acme.test, so only the invitation (never Acme's e-mail-domain JIT
// provisioning) can let them in.
test('the invitation link signs the invitee in to Acme as an active member, once', async () => {
  const email = `invitee-${Date.now()}@invited.example`;
  const { memberId, link } = await inviteToAcme(email);
  expect(await statusOf(memberId)).toBe('invited');

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expectLoggedIn(page, email, 'Acme Corp');
  expect(await statusOf(memberId)).toBe('active');
  await context.close();

  // A second opening, in a browser with no session: the link is spent.
  const again = await env.browser.newContext();
  const second = await again.newPage();
  await second.goto(link);
  await second.getByText('Looks like there was an error!').waitFor();
  await second
    .getByText(
      'Something went wrong. Your login link may have expired, been revoked, or been used more than once.',
    )
    .waitFor();
  await expect.poll(() => second.locator('#session-status').textContent()).toBe('Not signed in');
  expect((await again.cookies()).map((c) => c.name)).not.toContain('gatehouse_session');
  await again.close();
});

test('an invitee who signs in by discovery accepts the invitation from the organization list', async () => {
  const email = `discoverer-${Date.now()}@invited.example`;
  const { memberId } = await inviteToAcme(email);

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  const { link } = await waitForEmailLink(env.demo.url, email, 'discovery', seen);
  await page.goto(link);

  await page.getByText('Select an organization to continue').waitFor();
  const acme = page.getByRole('button', { name: /Acme Corp/ });
  await acme.filter({ hasText: 'Accept Invite' }).waitFor();
  expect(await statusOf(memberId)).toBe('invited');
  await acme.click();

  await expectLoggedIn(page, email, 'Acme Corp');
  expect(await statusOf(memberId)).toBe('active');
  await context.close();
});
