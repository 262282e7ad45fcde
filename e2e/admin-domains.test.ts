// The admin portal's domains in the browser, against a DNS server on loopback that the demo's
// server asks: the demo's admin adds an e-mail domain, publishes the TXT record the portal shows
// (in the test's DNS server), verifies it, and the domain becomes one the organization claims and
// may allow for joining by e-mail; a public mail domain is refused; at a desktop's and a phone's
// width, with the keyboard alone and axe finding nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { expectNoAxeViolations } from './a11y.js';
import { startTxtServer, type TxtServer } from './dns.js';
import { useBrowserAndDemo } from './harness.js';
import { pressOn, signInToAcmeByLink, tabTo, typeInto } from './steps.js';

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

const env = useBrowserAndDemo(() => ({ server: { logger: false, dnsServers: [dns.address] } }));

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
};

/** Signs `email` in to Acme Corp by login link, from its organization page. */
function signIn(page: Page, email: string): Promise<void> {
  return signInToAcmeByLink(page, env.demo.url, email);
}

const acme = async () =>
  (await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme'))!;

const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe.each(Object.entries(VIEWPORTS))('the domains section at %s width', (label, viewport) => {
  test('an admin proves a domain by DNS and allows it for joining by e-mail', async () => {
    const context = await env.browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, DEMO_ADMIN_EMAIL);
    await page.goto(`${env.demo.url}/_app/admin`);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await pressOn(page, nav.getByRole('button', { name: 'Domains' }));
    await page.getByRole('heading', { name: 'Email domains' }).waitFor();

    // A public mail provider's domain is refused, the server's words under the form.
    const field = page.getByLabel('Domain', { exact: true });
    await typeInto(page, field, 'gmail.com');
    await page.keyboard.press('Enter');
    const form = page.locator('form', { has: field });
    await expect
      .poll(() => form.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain('gmail.com is a public e-mail provider');

    // A company domain is added, pending, with the record to publish.
    const domain = `${label}.acme-corp.test`;
    await field.fill('');
    await typeInto(page, field, domain);
    await page.keyboard.press('Enter');
    await page.getByText(`${domain} added: publish its TXT record, then verify it`).waitFor();
    const row = page.getByRole('listitem', { name: domain });
    await row.getByText('Not verified').waitFor();
    const name = await row.getByLabel('TXT record name', { exact: true }).inputValue();
    const value = await row.getByLabel('TXT record value', { exact: true }).inputValue();
    expect(name).toBe(`_gatehouse-verification.${domain}`);
    await row.getByRole('button', { name: 'Copy: TXT record value' }).waitFor();
    await expectNoAxeViolations(page, `a pending domain (${label})`);
    expect(await overflows(page), label).toBe(false);

    // Verified before the record is published: the server says what is missing.
    await pressOn(page, row.getByRole('button', { name: 'Verify' }));
    await expect
      .poll(() => row.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain(`No TXT record was found at ${name}`);
    expect((await acme()).claimed_email_domains).not.toContain(domain);

    // Published as the portal showed it, then verified.
    dns.txt.set(name, ['v=spf1 -all', value]);
    await pressOn(page, row.getByRole('button', { name: 'Verify' }));
    await page.getByText(`${domain} verified`).waitFor();
    await row.getByText('Verified', { exact: true }).waitFor();
    expect(await row.getByLabel('TXT record value').count()).toBe(0);
    expect((await acme()).claimed_email_domains).toContain(domain);
    await expectNoAxeViolations(page, `a verified domain (${label})`);

    // The claimed domain may now be allowed for joining by e-mail.
    await pressOn(page, nav.getByRole('button', { name: 'Settings' }));
    const allowed = page.getByLabel('Allowed email domains');
    await expect.poll(() => allowed.inputValue(), { timeout: 15_000 }).toContain('acme.test');
    await tabTo(page, allowed);
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(`\n${domain}`);
    await pressOn(page, page.getByRole('button', { name: 'Save' }));
    await page.getByText('Saved', { exact: true }).waitFor();
    expect((await acme()).email_allowed_domains).toContain(domain);
    await context.close();
  }, 150_000);
});
