// Multi-factor authentication in the browser: TOTP enrollment with backup codes, SMS enrollment with
// the code from the dev inbox, sign-in with a backup code, and a wrong passcode.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectNoAxeViolations } from './a11y.js';
import {
  enrollTotp,
  enrollTotpByKeyboard,
  expectLoggedIn,
  pressOn,
  typeInto,
  waitForSmsCode,
} from './steps.js';

const env = useBrowserAndDemo();

/** An organization that requires MFA, with one member who has not enrolled yet. */
async function mfaOrganization(slug: string, name: string): Promise<{ email: string }> {
  const admin = env.demo.app.gatehouse;
  const org = await admin.createOrganization(env.demo.projectId, {
    organization_name: name,
    organization_slug: slug,
  });
  await admin.updateOrganization(env.demo.projectId, org.organization_id, {
    mfa_policy: 'REQUIRED_FOR_ALL',
  });
  const email = `member@${slug}.test`;
  await admin.createMember(env.demo.projectId, org.organization_id, { email_address: email });
  return { email };
}

/** Signs in with a magic link up to the point where the widget asks for a second factor. */
async function primaryLogin(page: Page, slug: string, name: string, email: string): Promise<void> {
  await page.goto(`${env.demo.url}/_app/org/${slug}`);
  await page.getByRole('heading', { name: `Continue to ${name}` }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_magic_links', seen);
  await page.goto(link);
}

/** On the backup codes screen: downloads the file, checks it, returns the codes. */
async function downloadBackupCodes(page: Page, organizationName: string): Promise<string[]> {
  const shown = await page.locator('.gh-codes li').allTextContents();
  expect(shown).toHaveLength(10);
  for (const code of shown) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download file' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${organizationName}-backup-codes.txt`);
  const path = await download.path();
  const lines = (await readFile(path, 'utf8')).split(/\r?\n/).filter((l) => l !== '');
  expect(lines).toEqual(shown);
  return shown;
}

test('an organization requiring MFA: enroll an authenticator app, save backup codes, sign in', async () => {
  const { email } = await mfaOrganization('totp-co', 'Totp Co');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await primaryLogin(page, 'totp-co', 'Totp Co', email);
  await enrollTotp(page);
  await downloadBackupCodes(page, 'Totp Co');
  await page.getByRole('button', { name: 'Done' }).click();
  await expectLoggedIn(page, email, 'Totp Co');

  const org = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'totp-co');
  const member = await env.demo.app.gatehouse.getMemberByEmail(
    env.demo.projectId,
    org!.organization_id,
    email,
  );
  expect(member?.totp_registration_id).toMatch(/^member-totp-test-/);
  await context.close();
});

test('SMS enrollment: the code from the dev inbox signs the member in; the countdown runs', async () => {
  const { email } = await mfaOrganization('sms-co', 'Sms Co');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await primaryLogin(page, 'sms-co', 'Sms Co', email);
  await page.getByRole('heading', { name: 'Set up Multi-Factor Authentication' }).waitFor();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await page
    .getByRole('heading', { name: 'Enter your phone number to set up Multi-Factor Authentication' })
    .waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel('Phone number').fill('4155550171');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Enter passcode' }).waitFor();
  await page.getByText(/A 6-digit passcode was sent to you at .+\./).waitFor();

  const countdown = page.getByText(/Your code expires in \d:\d\d\./);
  const seconds = async () => {
    const match = /(\d):(\d\d)/.exec((await countdown.textContent()) ?? '');
    return match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
  };
  const first = await seconds();
  expect(first).toBeGreaterThan(100);
  expect(first).toBeLessThanOrEqual(120);
  await expect.poll(seconds, { timeout: 5_000 }).toBeLessThan(first);

  const code = await waitForSmsCode(env.demo.url, '+14155550171', seen);
  await page.getByLabel('Passcode').fill(code);
  await expectLoggedIn(page, email, 'Sms Co');

  const org = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'sms-co');
  const member = await env.demo.app.gatehouse.getMemberByEmail(
    env.demo.projectId,
    org!.organization_id,
    email,
  );
  expect(member).toMatchObject({
    mfa_phone_number: '+14155550171',
    mfa_phone_number_verified: true,
  });
  await context.close();

  // Next time the phone is verified: the server texts the code at sign-in, the widget goes
  // straight to the passcode and does not send another one.
  const again = await env.browser.newContext();
  const next = await again.newPage();
  const before = await inboxIds(env.demo.url);
  await primaryLogin(next, 'sms-co', 'Sms Co', email);
  await next.getByRole('heading', { name: 'Enter passcode' }).waitFor();
  const autoCode = await waitForSmsCode(env.demo.url, '+14155550171', before);
  await next.getByLabel('Passcode').fill(autoCode);
  await expectLoggedIn(next, email, 'Sms Co');
  const texts = await fetch(`${env.demo.url}/_dev/inbox/messages`).then(
    async (r) => (await r.json()) as { id: string; channel: string; to: string }[],
  );
  expect(
    texts.filter((m) => m.channel === 'sms' && m.to === '+14155550171' && !before.has(m.id)),
  ).toHaveLength(1);
  await again.close();
});

test('a member with an authenticator app signs in with a backup code instead', async () => {
  const { email } = await mfaOrganization('backup-co', 'Backup Co');
  const first = await env.browser.newContext();
  const enrolling = await first.newPage();
  await primaryLogin(enrolling, 'backup-co', 'Backup Co', email);
  await enrollTotp(enrolling);
  const codes = await downloadBackupCodes(enrolling, 'Backup Co');
  await enrolling.getByRole('button', { name: 'Done' }).click();
  await expectLoggedIn(enrolling, email, 'Backup Co');
  await first.close();

  const second = await env.browser.newContext();
  const page = await second.newPage();
  await primaryLogin(page, 'backup-co', 'Backup Co', email);
  await page.getByRole('heading', { name: 'Enter verification code' }).waitFor();
  await page
    .getByRole('button', { name: "Can't access your authenticator app? Use a backup code" })
    .click();
  await page.getByRole('heading', { name: 'Enter backup code' }).waitFor();
  const continueButton = page.getByRole('button', { name: 'Continue' });
  expect(await continueButton.isDisabled()).toBe(true);
  await page.getByPlaceholder('Enter backup code').fill(codes[0]!);
  await continueButton.click();
  await expectLoggedIn(page, email, 'Backup Co');
  await second.close();
});

test('a wrong passcode shows "Invalid passcode, please try again." and the right one still works', async () => {
  const { email } = await mfaOrganization('wrong-co', 'Wrong Co');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await primaryLogin(page, 'wrong-co', 'Wrong Co', email);
  await enrollTotp(page, { wrongCodeFirst: true });
  await page.getByRole('button', { name: 'Done' }).click();
  await expectLoggedIn(page, email, 'Wrong Co');
  await context.close();
});

/** `primaryLogin` with the keyboard alone. */
async function primaryLoginByKeyboard(page: Page, slug: string, name: string, email: string) {
  await page.goto(`${env.demo.url}/_app/org/${slug}`);
  await page.getByRole('heading', { name: `Continue to ${name}` }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), email);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_magic_links', seen);
  await page.goto(link);
}

test('TOTP enrollment and backup codes with the keyboard alone', async () => {
  const { email } = await mfaOrganization('kb-totp-co', 'Kb Totp Co');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await primaryLoginByKeyboard(page, 'kb-totp-co', 'Kb Totp Co', email);
  await page.getByRole('heading', { name: 'Set up Multi-Factor Authentication' }).waitFor();
  await expectNoAxeViolations(page, 'MFAEnrollmentSelection', '.gh-root');
  await enrollTotpByKeyboard(page);
  await expectNoAxeViolations(page, 'RecoveryCodeSave', '.gh-root');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    pressOn(page, page.getByRole('button', { name: 'Download file' })),
  ]);
  expect(download.suggestedFilename()).toBe('Kb Totp Co-backup-codes.txt');
  await pressOn(page, page.getByRole('button', { name: 'Done' }));
  await expectLoggedIn(page, email, 'Kb Totp Co');
  await context.close();
});

test('SMS enrollment with the keyboard alone', async () => {
  const { email } = await mfaOrganization('kb-sms-co', 'Kb Sms Co');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await primaryLoginByKeyboard(page, 'kb-sms-co', 'Kb Sms Co', email);
  await page.getByRole('heading', { name: 'Set up Multi-Factor Authentication' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Text me a code' }));
  await page
    .getByRole('heading', { name: 'Enter your phone number to set up Multi-Factor Authentication' })
    .waitFor();
  await expectNoAxeViolations(page, 'SMSOTPEnrollment', '.gh-root');
  const seen = await inboxIds(env.demo.url);
  await typeInto(page, page.getByRole('textbox', { name: 'Phone number' }), '4155550172');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Enter passcode' }).waitFor();
  await expectNoAxeViolations(page, 'SMSOTPEntry', '.gh-root');
  const code = await waitForSmsCode(env.demo.url, '+14155550172', seen);
  await typeInto(page, page.getByRole('textbox', { name: 'Passcode' }), code);
  await expectLoggedIn(page, email, 'Kb Sms Co');
  await context.close();
});

test('a backup code instead of the authenticator app, with the keyboard alone', async () => {
  const { email } = await mfaOrganization('kb-backup-co', 'Kb Backup Co');
  const first = await env.browser.newContext();
  const enrolling = await first.newPage();
  await primaryLoginByKeyboard(enrolling, 'kb-backup-co', 'Kb Backup Co', email);
  await enrollTotpByKeyboard(enrolling);
  const codes = await enrolling.locator('.gh-codes li').allTextContents();
  await pressOn(enrolling, enrolling.getByRole('button', { name: 'Done' }));
  await expectLoggedIn(enrolling, email, 'Kb Backup Co');
  await first.close();

  const second = await env.browser.newContext();
  const page = await second.newPage();
  await primaryLoginByKeyboard(page, 'kb-backup-co', 'Kb Backup Co', email);
  await page.getByRole('heading', { name: 'Enter verification code' }).waitFor();
  await expectNoAxeViolations(page, 'TOTPEntry', '.gh-root');
  await pressOn(
    page,
    page.getByRole('button', { name: "Can't access your authenticator app? Use a backup code" }),
  );
  await page.getByRole('heading', { name: 'Enter backup code' }).waitFor();
  await expectNoAxeViolations(page, 'RecoveryCodeEntry', '.gh-root');
  await typeInto(page, page.getByRole('textbox', { name: 'Enter backup code' }), codes[0]!);
  await page.keyboard.press('Enter');
  await expectLoggedIn(page, email, 'Kb Backup Co');
  await second.close();
});
