// The admin portal's settings and members in the browser: the demo's admin renames the
// organization's slug, restricts the second factors members may use and gives a role by e-mail
// domain, with the keyboard alone and axe finding nothing; the server holds what the portal
// showed, and the members section shows how each member signs in.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, typeInto } from './steps.js';

const env = useBrowserAndDemo();

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

test('an admin renames the slug, restricts second factors and gives a role by e-mail domain', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, DEMO_ADMIN_EMAIL);
  await page.goto(`${env.demo.url}/_app/admin`);

  // The members section says how the admin signs in.
  const me = page.getByRole('listitem', { name: DEMO_ADMIN_EMAIL });
  await me.getByText(/^Signs in with /).waitFor();

  const nav = page.getByRole('navigation', { name: 'Sections' });
  await nav.getByRole('button', { name: 'Settings' }).click();
  const slug = page.getByLabel('Slug');
  await expect.poll(() => slug.inputValue(), { timeout: 15_000 }).toBe('acme');
  await slug.fill('');
  await typeInto(page, slug, 'acme-renamed');
  // Tab reaches a radio group at its checked radio; the arrow keys choose another.
  await pressOn(page, page.getByRole('radio', { name: 'Any second factor' }), 'ArrowDown');
  const restricted = page.getByRole('radio', { name: 'Only these second factors' });
  await expect.poll(() => restricted.isChecked(), { timeout: 15_000 }).toBe(true);
  await pressOn(page, page.getByRole('checkbox', { name: 'Text message' }), 'Space');
  await typeInto(page, page.getByLabel('Email domain', { exact: true }), 'contractors.acme.test');
  await pressOn(page, page.getByRole('button', { name: 'Add rule' }));
  await page.getByText('contractors.acme.test: admin').waitFor();
  await expectNoAxeViolations(page, 'the settings with new rules');
  await pressOn(page, page.getByRole('button', { name: 'Save' }));
  await page.getByText('Saved', { exact: true }).waitFor();

  const gatehouse = env.demo.app.gatehouse;
  expect(await gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme')).toBeNull();
  const org = await gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme-renamed');
  expect(org?.mfa_methods).toBe('RESTRICTED');
  expect(org?.allowed_mfa_methods).toEqual(['totp']);
  expect(org?.rbac_email_implicit_role_assignments).toEqual([
    { domain: 'contractors.acme.test', role_id: 'admin' },
  ]);
  await context.close();
}, 150_000);
