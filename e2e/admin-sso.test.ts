// The admin portal's SSO setup in the browser against a real SAML IdP: an admin creates a
// connection from the IdP's metadata URL, gives the IdP only the values the portal shows, maps a
// group to a role, tests the connection in a popup (nobody signed in; the popup closes itself),
// sets the SSO rules, and a member then signs in by SAML; once with the mouse, once with the
// keyboard alone.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Organization } from '@gatehouse/protocol';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { expectNoAxeViolations } from './a11y.js';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { expectLoggedIn, pressOn, tabTo, typeInto } from './steps.js';

const env = useBrowserAndDemo();
let idp: SamlIdp;

beforeAll(async () => {
  idp = await startSamlIdp();
  for (const [email, firstName] of [
    ['tester@acme.test', 'Tess'],
    ['grace.sso@acme.test', 'Grace'],
    ['linus.sso@acme.test', 'Linus'],
  ] as const) {
    idp.users.set(email, {
      password: 'idp-password',
      firstName,
      lastName: 'Example',
      groups: ['acme-engineers'],
    });
  }
});

afterAll(async () => {
  await idp?.close();
});

/** Signs the demo's admin in to Acme Corp and opens the portal's SSO section. */
async function openSsoSection(page: Page): Promise<void> {
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  const { link } = await waitForEmailLink(
    env.demo.url,
    DEMO_ADMIN_EMAIL,
    'multi_tenant_magic_links',
    seen,
  );
  await page.goto(link);
  await page.getByText('Success!').waitFor();
  await page.goto(`${env.demo.url}/_app/admin`);
}

/** A connection's entry in the list. */
const connectionItem = (page: Page, name: string): Locator =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

/** What an IdP admin does with the portal's values: registers our entity ID and ACS URL. */
async function registerAtIdp(item: Locator): Promise<void> {
  const entityId = await item.getByLabel('SP entity ID', { exact: true }).inputValue();
  const acsUrl = await item.getByLabel('ACS URL', { exact: true }).inputValue();
  idp.serviceProviders.set(entityId, acsUrl);
}

/** At the IdP's login form (a page or the test popup). */
async function signInAtIdp(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('idp-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function acme(): Promise<Organization> {
  const org = await env.demo.app.gatehouse.getOrganizationBySlug(env.demo.projectId, 'acme');
  return org!;
}

async function acmeMember(email: string) {
  return env.demo.app.gatehouse.getMemberByEmail(
    env.demo.projectId,
    (await acme()).organization_id,
    email,
  );
}

/** A new member signs in by SAML from Acme's page and gets the group's role. */
async function signInBySaml(connectionName: string, email: string): Promise<void> {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  await page.getByRole('button', { name: `Continue with ${connectionName}` }).click();
  await signInAtIdp(page, email);
  await expectLoggedIn(page, email, 'Acme Corp');
  const joined = await acmeMember(email);
  expect(joined?.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
  await context.close();
}

test('an admin sets SAML up from what the portal shows, tests it, and a member signs in by it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openSsoSection(page);
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: 'Single sign-on' })
    .click();
  await page.getByRole('heading', { name: 'Single sign-on connections' }).waitFor();

  // A connection from the IdP's metadata URL.
  const form = page.locator('form', {
    has: page.getByRole('heading', { name: 'New SAML connection' }),
  });
  await form.getByLabel('Display name').fill('Acme Okta');
  await form.getByLabel('Give its URL').check();
  await form.getByLabel('IdP metadata URL').fill(idp.metadataUrl);
  await form.getByRole('button', { name: 'Create SAML connection' }).click();
  await page.getByText('Connection Acme Okta created').waitFor();
  const item = connectionItem(page, 'Acme Okta SAML Active');
  await item.waitFor();
  await registerAtIdp(item);

  // A group gives a role.
  await item.getByRole('button', { name: 'Manage Acme Okta' }).click();
  await item.getByRole('button', { name: 'Add a group rule' }).click();
  await item.getByLabel('Group of rule 1').fill('acme-engineers');
  await item.getByLabel('Role of rule 1').selectOption('admin');
  await item.getByRole('button', { name: 'Save attributes and roles' }).click();
  await page.getByText('Attributes and roles saved').waitFor();

  // The test sign-in in a popup: each check reported, nobody signed in.
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    item.getByRole('button', { name: 'Test connection' }).click(),
  ]);
  await signInAtIdp(popup, 'tester@acme.test');
  await item.getByText('The test passed').waitFor();
  // The popup closes itself: the portal's page (COOP same-origin) lost its hold on it at the IdP.
  await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true);
  for (const check of ['Signature', 'Audience', 'Recipient (ACS URL)', 'Clock', 'E-mail address']) {
    await item.getByRole('listitem').filter({ hasText: check }).getByText('Passed').waitFor();
  }
  await item.getByText('This person would get the roles admin.').waitFor();
  expect(await acmeMember('tester@acme.test')).toBeFalsy();
  await expectNoAxeViolations(page, 'the SSO section with a test report');

  // Made off, it is turned on once tested.
  await item.getByText('A test passed since you opened this page.').waitFor();
  await item.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('Sign-in through Acme Okta is on').waitFor();
  await connectionItem(page, 'Acme Okta SAML Active On').waitFor();

  // The organization's SSO rules.
  const rules = page.locator('form', { has: page.getByRole('heading', { name: 'SSO rules' }) });
  await rules.getByLabel('Default connection').selectOption({ label: 'Acme Okta' });
  await rules.getByLabel('Any connection may add members').check();
  await rules.getByRole('button', { name: 'Save SSO rules' }).click();
  await page.getByText('SSO rules saved').waitFor();
  const org = await acme();
  const connection = org.sso_active_connections.find((c) => c.display_name === 'Acme Okta');
  expect(org.sso_default_connection_id).toBe(connection?.connection_id);
  expect(org.sso_jit_provisioning).toBe('ALL_ALLOWED');
  await context.close();

  await signInBySaml('Acme Okta', 'grace.sso@acme.test');
});

test('an admin does the SSO setup with the keyboard alone', async () => {
  const context = await env.browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await openSsoSection(page);
  const far = { max: 400 };
  await pressOn(
    page,
    page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('button', { name: 'Single sign-on' }),
  );
  await page.getByRole('heading', { name: 'Single sign-on connections' }).waitFor();

  const form = page.locator('form', {
    has: page.getByRole('heading', { name: 'New SAML connection' }),
  });
  await tabTo(page, form.getByLabel('Display name'), far);
  await page.keyboard.type('Keyboard IdP');
  // Arrow keys move within a radio group (its checked radio is the one tab stop).
  await pressOn(page, form.getByLabel('Paste the XML'), 'ArrowDown');
  expect(await form.getByLabel('Give its URL').isChecked()).toBe(true);
  await typeInto(page, form.getByLabel('IdP metadata URL'), idp.metadataUrl);
  await pressOn(page, form.getByRole('button', { name: 'Create SAML connection' }));
  await page.getByText('Connection Keyboard IdP created').waitFor();
  const item = connectionItem(page, 'Keyboard IdP SAML Active');
  await registerAtIdp(item);

  await tabTo(page, item.getByRole('button', { name: 'Manage Keyboard IdP' }), {
    ...far,
    backwards: true,
  });
  await page.keyboard.press('Enter');
  await pressOn(page, item.getByRole('button', { name: 'Add a group rule' }));
  // An empty rule is refused, its field named and focused.
  await pressOn(page, item.getByRole('button', { name: 'Save attributes and roles' }));
  await item.getByText('Name the IdP group.').waitFor();
  await expect
    .poll(() => item.getByLabel('Group of rule 1').evaluate((el) => el === document.activeElement))
    .toBe(true);
  await page.keyboard.type('acme-engineers');
  await tabTo(page, item.getByLabel('Role of rule 1'));
  await page.keyboard.press('ArrowDown');
  expect(await item.getByLabel('Role of rule 1').inputValue()).toBe('admin');
  await pressOn(page, item.getByRole('button', { name: 'Save attributes and roles' }));
  await page.getByText('Attributes and roles saved').waitFor();

  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    tabTo(page, item.getByRole('button', { name: 'Test connection' }), {
      ...far,
      backwards: true,
    }).then(() => page.keyboard.press('Enter')),
  ]);
  await signInAtIdp(popup, 'tester@acme.test');
  await item.getByText('The test passed').waitFor();
  // The report takes the focus, so a screen reader reads it next.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.className ?? ''))
    .toContain('gh-admin-report');
  await tabTo(page, item.getByRole('button', { name: 'Turn on' }), far);
  await page.keyboard.press('Enter');
  await page.getByText('Sign-in through Keyboard IdP is on').waitFor();

  const rules = page.locator('form', { has: page.getByRole('heading', { name: 'SSO rules' }) });
  const chosen = rules.getByLabel('Default connection');
  await tabTo(page, chosen, far);
  for (let i = 0; i < 5; i++) {
    if (
      (await chosen.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text)) ===
      'Keyboard IdP'
    )
      break;
    await page.keyboard.press('ArrowDown');
  }
  await pressOn(page, rules.getByRole('button', { name: 'Save SSO rules' }));
  await page.getByText('SSO rules saved').waitFor();
  const org = await acme();
  const connection = org.sso_active_connections.find((c) => c.display_name === 'Keyboard IdP');
  expect(org.sso_default_connection_id).toBe(connection?.connection_id);
  await expectNoAxeViolations(page, 'the SSO section after a keyboard setup (phone width)');
  await context.close();

  await signInBySaml('Keyboard IdP', 'linus.sso@acme.test');
});
