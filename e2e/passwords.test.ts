// Passwords in Chromium against the demo: sign-in, wrong password, reset e-mail, first password.
import type { BrowserContext, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { DEMO_ORG_SLUG } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectNoAxeViolations } from './a11y.js';
import { expectLoggedIn, pressOn, tabTo, typeInto } from './steps.js';

const env = useBrowserAndDemo();

const STRONG = 'Quartz-Lantern-Orbit-42';
const NEW_STRONG = 'Velvet-Harbor-Compass-77';

/** A fresh member of Acme Corp with a password, created as the host's backend would. */
async function memberWithPassword(prefix: string, password = STRONG): Promise<string> {
  const admin = env.demo.app.gatehouse;
  const org = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
  if (!org) throw new Error('the demo has no acme organization');
  const email = `${prefix}-${Date.now()}@acme.test`;
  const member = await admin.createMember(env.demo.projectId, org.organization_id, {
    email_address: email,
  });
  await admin.setMemberPassword(env.demo.projectId, member.member_id, { password });
  return email;
}

/** Signs in over the SDK API, as any client would: the status code says whether it worked. */
async function passwordLoginStatus(email: string, password: string): Promise<number> {
  const admin = env.demo.app.gatehouse;
  const org = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
  const token = env.demo.publicToken;
  const response = await fetch(`${env.demo.url}/sdk/v1/b2b/passwords/authenticate`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${token}:${token}`).toString('base64')}`,
      'content-type': 'application/json',
      origin: env.demo.url,
    },
    body: JSON.stringify({
      organization_id: org?.organization_id,
      email_address: email,
      password,
      session_duration_minutes: 30,
    }),
  });
  return response.status;
}

/** Opens Acme's sign-in page and switches to the password form. */
async function openPasswordLogin(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/${DEMO_ORG_SLUG}`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await page.getByText('Use a password instead').click();
  await page.getByRole('heading', { name: 'Log in with email and password' }).waitFor();
  return page;
}

/** The reset form: a weak password is rated and refused, a strong one is accepted. */
async function chooseNewPassword(page: Page, password: string): Promise<void> {
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  const field = page.getByLabel('New password', { exact: true });
  const submit = page.getByRole('button', { name: 'Continue' });
  const meter = page.getByRole('meter', { name: 'Password strength' });

  await field.fill('ada-lovelace');
  await expect.poll(() => meter.getAttribute('aria-valuenow')).toBe('2');
  await page.getByText('Common names and surnames are easy to guess.').waitFor();
  expect(await submit.isDisabled()).toBe(true);

  await field.fill(password);
  await expect.poll(() => meter.getAttribute('aria-valuenow')).toBe('4');
  await expect.poll(() => submit.isEnabled()).toBe(true);
  await submit.click();
}

test('password sign-in: a member of acme logs in with e-mail and password', async () => {
  const email = await memberWithPassword('pw-login');
  const context = await env.browser.newContext();
  const page = await openPasswordLogin(context);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByText('Success!').waitFor();
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toBe(`Signed in as ${email} (Acme Corp)`);
  await context.close();
});

test('a wrong password is refused with the help message', async () => {
  const email = await memberWithPassword('pw-wrong');
  const context = await env.browser.newContext();
  const page = await openPasswordLogin(context);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('not-my-password');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page
    .getByText('Invalid email or password. Please try again or use the link below to get help.')
    .waitFor();
  expect(await page.locator('#session-status').textContent()).toBe('Not signed in');
  await context.close();
});

test('forgot password: the reset e-mail leads to a new password and a session', async () => {
  const email = await memberWithPassword('pw-forgot');
  const context = await env.browser.newContext();
  const page = await openPasswordLogin(context);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Having trouble signing in? Get help' }).click();
  await page.getByRole('heading', { name: 'Check your email for help signing in!' }).waitFor();
  await page.getByLabel(/email/i).fill(email);
  const seen = await inboxIds(env.demo.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('heading', { name: 'Check your email!' }).waitFor();

  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_passwords', seen);
  expect(new URL(link).pathname).toBe('/_app/reset');
  await page.goto(link);
  await chooseNewPassword(page, NEW_STRONG);
  await page.getByText('Success!').waitFor();
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toBe(`Signed in as ${email} (Acme Corp)`);
  expect(new URL(page.url()).search).toBe('');

  expect(await passwordLoginStatus(email, NEW_STRONG)).toBe(200);
  expect(await passwordLoginStatus(email, STRONG)).toBe(401);
  await context.close();
});

test('no password yet: verify the e-mail, then set a password', async () => {
  // A newcomer at acme.test: Acme lets that domain join, so a login link is sent instead.
  const email = `pw-newcomer-${Date.now()}@acme.test`;
  const context = await env.browser.newContext();
  const page = await openPasswordLogin(context);
  await page.getByRole('button', { name: 'Having trouble signing in? Get help' }).click();
  await page.getByRole('heading', { name: 'Check your email for help signing in!' }).waitFor();
  await page.getByLabel(/email/i).fill(email);
  const seen = await inboxIds(env.demo.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('heading', { name: 'Verify your email first.' }).waitFor();
  await page.getByText(`A login link was sent to you at ${email}.`).waitFor();

  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_magic_links', seen);
  expect(new URL(link).pathname).toBe('/_app/reset');
  await page.goto(link);
  await chooseNewPassword(page, NEW_STRONG);
  await page.getByText('Success!').waitFor();
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toBe(`Signed in as ${email} (Acme Corp)`);

  expect(await passwordLoginStatus(email, NEW_STRONG)).toBe(200);
  await context.close();
});

test('password sign-in and a wrong password, with the keyboard alone', async () => {
  const email = await memberWithPassword('pw-keyboard');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/${DEMO_ORG_SLUG}`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Use a password instead' }));
  await page.getByRole('heading', { name: 'Log in with email and password' }).waitFor();
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), email);
  const password = page.getByLabel('Password', { exact: true });
  await typeInto(page, password, 'not-my-password');
  await page.keyboard.press('Enter');
  await page
    .getByText('Invalid email or password. Please try again or use the link below to get help.')
    .waitFor();
  await expectNoAxeViolations(page, 'PasswordAuthenticate with an error', '.gh-root');

  // Shift+Tab back to the field, show the password with Space, and correct it.
  await tabTo(page, password, { backwards: true });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(STRONG);
  await pressOn(page, page.getByRole('button', { name: 'Show password' }), 'Space');
  expect(await password.getAttribute('type')).toBe('text');
  await pressOn(page, page.getByRole('button', { name: 'Continue', exact: true }));
  await expectLoggedIn(page, email, 'Acme Corp');
  await context.close();
});

test('forgot password with the keyboard alone: reset e-mail, new password, signed in', async () => {
  const email = await memberWithPassword('pw-keyboard-forgot');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/${DEMO_ORG_SLUG}`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Use a password instead' }));
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), email);
  await pressOn(page, page.getByRole('button', { name: 'Having trouble signing in? Get help' }));
  await page.getByRole('heading', { name: 'Check your email for help signing in!' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  // The address carries over; Enter in its field sends the reset e-mail.
  await tabTo(page, page.getByRole('textbox', { name: 'Email' }));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Check your email!' }).waitFor();
  await expectNoAxeViolations(page, 'PasswordSetNewConfirmation', '.gh-root');

  const { link } = await waitForEmailLink(env.demo.url, email, 'multi_tenant_passwords', seen);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  const meter = page.getByRole('meter', { name: 'Password strength' });
  await typeInto(page, page.getByLabel('New password', { exact: true }), NEW_STRONG);
  await expect.poll(() => meter.getAttribute('aria-valuenow')).toBe('4');
  await expectNoAxeViolations(page, 'PasswordResetForm', '.gh-root');
  await page.keyboard.press('Enter');
  await expectLoggedIn(page, email, 'Acme Corp');
  expect(await passwordLoginStatus(email, NEW_STRONG)).toBe(200);
  await context.close();
});
