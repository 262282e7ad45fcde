// The admin portal's account section in the browser: a plain member sets a password and changes
// it with the current one, sets up an authenticator app from the key the portal shows and keeps
// the backup codes shown once, adds a phone by the code texted to it, and removes both, with
// axe finding nothing at a desktop's and a phone's width; the server holds what the portal showed.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { MemberResult } from '@gatehouse/protocol';
import { expectNoAxeViolations } from './a11y.js';
import { inboxIds, manageDemo, useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, totpCode, typeInto, waitForSmsCode } from './steps.js';

const env = useBrowserAndDemo();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
/** One flow signs in, loads the portal and checks with axe: slow on a loaded machine. */
const FLOW_MS = 150_000;

const FIRST_PASSWORD = 'a first passphrase for the portal 2026';
const NEW_PASSWORD = 'a second passphrase for the portal 2027';

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

/** A new plain member of Acme Corp, and a way to read them back as stored. */
async function plainMember(label: string) {
  const email = `account-${label}-${Date.now()}@acme.test`;
  const acme = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  const path = `/v1/b2b/organizations/${acme!.organization_id}/members`;
  const created = await manageDemo<MemberResult>(env.demo, 'POST', path, { email_address: email });
  const stored = async () =>
    (await manageDemo<MemberResult>(env.demo, 'GET', `${path}/${created.member_id}`)).member;
  return { email, stored };
}

/** A new member signed in, on the portal's account section. */
async function openAccount(label: string, viewport: { width: number; height: number }) {
  const member = await plainMember(label);
  const context = await env.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, member.email);
  await page.goto(`${env.demo.url}/_app/admin`);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await nav.getByRole('button', { name: 'Your account' }).click();
  await page.getByText(`How you sign in as ${member.email}.`).waitFor();
  return { ...member, context, page };
}

const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test(
  'a member sets a first password, then changes it only with the current one',
  async () => {
    const { page, context, stored } = await openAccount('password', DESKTOP);
    await expectNoAxeViolations(page, 'the account section (desktop)');
    const password = page.getByRole('group', { name: 'Password' });
    await typeInto(page, password.getByLabel('New password'), FIRST_PASSWORD);
    const set = password.getByRole('button', { name: 'Set password' });
    await expect.poll(() => set.isEnabled(), { timeout: 15_000 }).toBe(true);
    await pressOn(page, set);
    await page.getByText('Password saved. Your other sessions have ended.').waitFor();
    await password.getByLabel('Current password').waitFor();
    expect((await stored()).member_password_id).not.toBe('');
    await typeInto(page, password.getByLabel('Current password'), 'not the password at all');
    await typeInto(page, password.getByLabel('New password'), NEW_PASSWORD);
    const change = password.getByRole('button', { name: 'Change password' });
    await expect.poll(() => change.isEnabled(), { timeout: 15_000 }).toBe(true);
    await pressOn(page, change);
    await expect
      .poll(() => password.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe('The current password is wrong.');
    await password.getByLabel('Current password').fill(FIRST_PASSWORD);
    await pressOn(page, change);
    await expect
      .poll(() => password.getByLabel('Current password').inputValue(), { timeout: 15_000 })
      .toBe('');
    await context.close();
  },
  FLOW_MS,
);

test(
  'a member sets up an authenticator app, keeps the backup codes shown once, and removes it',
  async () => {
    const { page, context, stored } = await openAccount('totp', PHONE);
    const app = page.getByRole('group', { name: 'Authenticator app' });
    await pressOn(page, app.getByRole('button', { name: 'Set up authenticator app' }));
    await app.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = await app.getByRole('textbox', { name: 'Key to enter by hand' }).inputValue();
    await app.getByLabel('Six-digit code').fill(totpCode(secret));
    await pressOn(page, app.getByRole('button', { name: 'Verify' }));
    const codes = app.getByRole('group', { name: 'Your backup codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').allTextContents()).toHaveLength(10);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      codes.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('backup-codes.txt');
    await expectNoAxeViolations(page, 'the backup codes (phone)');
    expect(await overflows(page)).toBe(false);
    await pressOn(page, codes.getByRole('button', { name: 'I have saved them' }));
    expect(await codes.count()).toBe(0);
    expect((await stored()).totp_registration_id).not.toBe('');
    await pressOn(page, app.getByRole('button', { name: 'Remove authenticator app' }));
    await pressOn(page, app.getByRole('button', { name: 'Confirm' }));
    await app.getByText('Not set up').waitFor();
    expect((await stored()).totp_registration_id).toBe('');
    await context.close();
  },
  FLOW_MS,
);

test(
  'a member adds a phone by the code texted to it, then removes it',
  async () => {
    const { page, context, stored } = await openAccount('sms', DESKTOP);
    const phone = '+14155550181';
    const sms = page.getByRole('group', { name: 'Text message' });
    const seen = await inboxIds(env.demo.url);
    await typeInto(page, sms.getByLabel('Phone number with country code'), phone);
    await page.keyboard.press('Enter');
    const code = await waitForSmsCode(env.demo.url, phone, seen);
    await sms.getByLabel('Six-digit code').fill(code);
    await pressOn(page, sms.getByRole('button', { name: 'Verify' }));
    await sms.getByText(`Codes go to ${phone}`).waitFor();
    expect((await stored()).mfa_phone_number_verified).toBe(true);
    await pressOn(page, sms.getByRole('button', { name: 'Remove phone number' }));
    await pressOn(page, sms.getByRole('button', { name: 'Confirm' }));
    await sms.getByText('No phone number').waitFor();
    expect((await stored()).mfa_phone_number).toBe('');
    await context.close();
  },
  FLOW_MS,
);
