// The admin portal's settings at a phone's width, with the keyboard alone: the demo's admin
// renames the organization, gives it a logo, allows only some sign-in methods and requires MFA,
// with axe finding nothing and nothing wider than the screen; the server holds what the portal
// showed, and the organization's sign-in page shows the new name.
import { expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, tabTo } from './steps.js';

const env = useBrowserAndDemo();
const far = { max: 200 };

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

/** Replaces a field's text from the keyboard. */
async function retype(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field, far);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Sets a checkbox with the space bar. */
async function check(page: Page, box: Locator, checked: boolean): Promise<void> {
  if ((await box.isChecked()) === checked) return;
  await tabTo(page, box, far);
  await page.keyboard.press('Space');
  expect(await box.isChecked()).toBe(checked);
}

test('an admin renames the organization, restricts sign-in methods and requires MFA from a phone', async () => {
  const context = await env.browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await signIn(page, DEMO_ADMIN_EMAIL);
  await page.goto(`${env.demo.url}/_app/admin`);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await pressOn(page, nav.getByRole('button', { name: 'Settings' }));
  const name = page.getByLabel('Organization name');
  await expect.poll(() => name.inputValue(), { timeout: 15_000 }).toBe('Acme Corp');

  await retype(page, name, 'Acme Corporation');
  await retype(page, page.getByLabel('Logo URL'), 'https://acme.test/logo.png');
  // Tab reaches a radio group at its checked radio; the arrow keys choose another.
  await pressOn(page, page.getByRole('radio', { name: 'All methods' }), 'ArrowDown');
  expect(await page.getByRole('radio', { name: 'Only these methods' }).isChecked()).toBe(true);
  const methods = page.getByRole('group', { name: 'Allowed sign-in methods' });
  await check(page, methods.getByRole('checkbox', { name: 'Email login link' }), true);
  await check(page, methods.getByRole('checkbox', { name: 'Single sign-on' }), true);
  await check(page, methods.getByRole('checkbox', { name: 'Password' }), false);
  await check(page, methods.getByRole('checkbox', { name: 'Google' }), false);
  await check(page, methods.getByRole('checkbox', { name: 'Microsoft' }), false);
  await pressOn(page, page.getByRole('radio', { name: 'Optional' }), 'ArrowDown');
  expect(await page.getByRole('radio', { name: 'Required for all members' }).isChecked()).toBe(
    true,
  );
  await expectNoAxeViolations(page, 'the settings being changed (phone)');
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(
    false,
  );
  await tabTo(page, page.getByRole('button', { name: 'Save' }), far);
  await page.keyboard.press('Enter');
  await page.getByText('Saved', { exact: true }).waitFor();

  const org = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  expect(org?.organization_name).toBe('Acme Corporation');
  expect(org?.organization_logo_url).toBe('https://acme.test/logo.png');
  expect(org?.auth_methods).toBe('RESTRICTED');
  expect([...(org?.allowed_auth_methods ?? [])].sort()).toEqual(['magic_link', 'sso']);
  expect(org?.mfa_policy).toBe('REQUIRED_FOR_ALL');

  // The organization's sign-in page says what the portal saved.
  const visitor = await env.browser.newContext();
  const other = await visitor.newPage();
  await other.goto(`${env.demo.url}/_app/org/acme`);
  await other.getByRole('heading', { name: 'Continue to Acme Corporation' }).waitFor();
  await visitor.close();
  await context.close();
}, 150_000);
