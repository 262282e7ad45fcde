// The admin portal's last sign-ins and session limit in the browser: the demo's admin sees when
// each member last signed in, sets the organization's maximum session length with the keyboard
// alone and axe finding nothing, and the next sign-in's session (its cookie) ends within it
// although the page asks for an hour.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_SESSION_COOKIE } from '@gatehouse/protocol';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, typeInto } from './steps.js';

const env = useBrowserAndDemo();
const MINUTE = 60_000;

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

test('an admin sees last sign-ins and limits how long sessions live', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, DEMO_ADMIN_EMAIL);
  await page.goto(`${env.demo.url}/_app/admin`);

  // The admin has just signed in: their row gives a time, not 'never'.
  const me = page.getByRole('listitem', { name: DEMO_ADMIN_EMAIL });
  await me.getByText(/^Last sign-in: /).waitFor();
  expect(await me.getByText(/^Last sign-in: /).textContent()).not.toBe('Last sign-in: never');

  const nav = page.getByRole('navigation', { name: 'Sections' });
  await nav.getByRole('button', { name: 'Settings' }).click();
  const field = page.getByLabel('Maximum session length (minutes)');
  await expect.poll(() => field.getAttribute('placeholder'), { timeout: 15_000 }).toBe('No limit');
  expect(await field.inputValue()).toBe('');
  await typeInto(page, field, '15');
  await expectNoAxeViolations(page, 'the settings with a session limit');
  await pressOn(page, page.getByRole('button', { name: 'Save' }));
  await page.getByText('Saved', { exact: true }).waitFor();
  const org = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  expect(org?.session_max_duration_minutes).toBe(15);

  // A new sign-in in another browser: the page asks for 60 minutes, the cookie ends within 15.
  const other = await env.browser.newContext();
  const second = await other.newPage();
  const before = Date.now();
  await signIn(second, DEMO_ADMIN_EMAIL);
  const cookie = (await other.cookies()).find((c) => c.name === DEFAULT_SESSION_COOKIE);
  const lifetime = (cookie?.expires ?? 0) * 1000 - before;
  expect(lifetime).toBeGreaterThan(14 * MINUTE);
  expect(lifetime).toBeLessThanOrEqual(15 * MINUTE + 5_000);
  await other.close();
  await context.close();
}, 150_000);
