// SSO in the browser: the widget's 'Continue with …' button, a real SAML IdP or OpenID provider
// and its login form, and back to the app signed in; with MFA after SSO, and SSO from discovery.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Organization } from '@gatehouse/protocol';
import { startOidcIdp, startSamlIdp, type OidcIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { inboxIds, manageDemo, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { enrollTotp, expectLoggedIn, pressOn, typeInto } from './steps.js';

const env = useBrowserAndDemo();
let saml: SamlIdp;
let oidc: OidcIdp;

beforeAll(async () => {
  [saml, oidc] = await Promise.all([startSamlIdp(), startOidcIdp()]);
  saml.users.set('grace@globex.test', {
    password: 'saml-password',
    firstName: 'Grace',
    lastName: 'Hopper',
    groups: ['globex-admins'],
  });
  saml.users.set('mfa@strict.test', { password: 'strict-password' });
  saml.users.set('sso-only@umbrella.test', { password: 'umbrella-password' });
  oidc.users.set('lin@initech.test', { password: 'oidc-password', name: 'Lin Okafor' });
});

afterAll(async () => {
  await Promise.all([saml?.close(), oidc?.close()]);
});

async function organization(
  slug: string,
  name: string,
  settings: Record<string, unknown> = {},
): Promise<Organization> {
  const { organization } = await manageDemo<{ organization: Organization }>(
    env.demo,
    'POST',
    '/v1/b2b/organizations',
    { organization_name: name, organization_slug: slug, ...settings },
  );
  return organization;
}

async function samlConnection(org: Organization, displayName: string, extra: object = {}) {
  const { connection } = await manageDemo<{ connection: { connection_id: string } }>(
    env.demo,
    'POST',
    `/v1/b2b/sso/saml/${org.organization_id}`,
    { display_name: displayName, ...extra },
  );
  await manageDemo(
    env.demo,
    'PUT',
    `/v1/b2b/sso/saml/${org.organization_id}/connections/${connection.connection_id}/url`,
    {
      metadata_url: saml.metadataUrl,
    },
  );
  return connection.connection_id;
}

/** At an IdP's login form: signs in and waits to be back in the app. */
async function signInAtIdp(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function continueWith(page: Page, slug: string, heading: string, button: string) {
  await page.goto(`${env.demo.url}/_app/org/${slug}`);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('heading', { name: /Test (IdP|OpenID provider)/ }).waitFor();
}

async function member(slug: string, email: string) {
  const admin = env.demo.app.gatehouse;
  const org = await admin.getOrganizationBySlug(env.demo.projectId, slug);
  return admin.getMemberByEmail(env.demo.projectId, org!.organization_id, email);
}

test('SAML from the organization page: a new member joins with a role from their IdP group, then returns', async () => {
  const org = await organization('globex', 'Globex');
  await samlConnection(org, 'Globex Okta', {
    saml_group_implicit_role_assignments: [{ group: 'globex-admins', role_id: 'admin' }],
  });

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await continueWith(page, 'globex', 'Continue to Globex', 'Continue with Globex Okta');
  await signInAtIdp(page, 'grace@globex.test', 'saml-password');
  await expectLoggedIn(page, 'grace@globex.test', 'Globex');
  expect(new URL(page.url()).search).toBe('');

  const joined = await member('globex', 'grace@globex.test');
  expect(joined?.name).toBe('Grace Hopper');
  expect(joined?.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
  const sourced = joined?.roles.find((r) => r.role_id === 'admin')?.sources.map((s) => s.type);
  expect(sourced).toEqual(['sso_connection_group']);
  await context.close();

  // The same person again, now an existing member, in a fresh browser.
  const again = await env.browser.newContext();
  const second = await again.newPage();
  await continueWith(second, 'globex', 'Continue to Globex', 'Continue with Globex Okta');
  await signInAtIdp(second, 'grace@globex.test', 'saml-password');
  await expectLoggedIn(second, 'grace@globex.test', 'Globex');
  expect((await member('globex', 'grace@globex.test'))?.member_id).toBe(joined?.member_id);
  await again.close();
});

test('OIDC from the organization page signs the member in', async () => {
  const org = await organization('initech', 'Initech');
  const { connection } = await manageDemo<{ connection: { connection_id: string } }>(
    env.demo,
    'POST',
    `/v1/b2b/sso/oidc/${org.organization_id}`,
    {
      display_name: 'Initech Login',
      issuer: oidc.issuer,
      client_id: 'gatehouse-demo',
      client_secret: 'initech-client-secret',
    },
  );
  expect(connection.connection_id).toMatch(/^oidc-connection-test-/);
  oidc.addClient({
    clientId: 'gatehouse-demo',
    clientSecret: 'initech-client-secret',
    redirectUris: [`${env.demo.url}/v1/sso/oidc/callback`],
  });

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await continueWith(page, 'initech', 'Continue to Initech', 'Continue with Initech Login');
  await signInAtIdp(page, 'lin@initech.test', 'oidc-password');
  await expectLoggedIn(page, 'lin@initech.test', 'Initech');
  expect((await member('initech', 'lin@initech.test'))?.name).toBe('Lin Okafor');
  await context.close();
});

test('an organization that requires MFA asks for an authenticator app after SSO', async () => {
  const org = await organization('strict', 'Strict Co', { mfa_policy: 'REQUIRED_FOR_ALL' });
  await samlConnection(org, 'Strict IdP');

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await continueWith(page, 'strict', 'Continue to Strict Co', 'Continue with Strict IdP');
  await signInAtIdp(page, 'mfa@strict.test', 'strict-password');
  await enrollTotp(page);
  await page.getByRole('button', { name: 'Done' }).click();
  await expectLoggedIn(page, 'mfa@strict.test', 'Strict Co');
  expect((await member('strict', 'mfa@strict.test'))?.totp_registration_id).toMatch(
    /^member-totp-test-/,
  );
  await context.close();
});

test('discovery: choosing an organization that allows only SSO goes straight to its IdP', async () => {
  const org = await organization('umbrella', 'Umbrella', {
    auth_methods: 'RESTRICTED',
    allowed_auth_methods: ['sso'],
  });
  await samlConnection(org, 'Umbrella SSO');
  await env.demo.app.gatehouse.createMember(env.demo.projectId, org.organization_id, {
    email_address: 'sso-only@umbrella.test',
  });

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel(/email/i).fill('sso-only@umbrella.test');
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  const { link } = await waitForEmailLink(
    env.demo.url,
    'sso-only@umbrella.test',
    'discovery',
    seen,
  );
  await page.goto(link);
  await page.getByText('Select an organization to continue').waitFor();
  await page.getByRole('button', { name: /Umbrella/ }).click();

  await page.getByRole('heading', { name: 'Test IdP' }).waitFor();
  await signInAtIdp(page, 'sso-only@umbrella.test', 'umbrella-password');
  await expectLoggedIn(page, 'sso-only@umbrella.test', 'Umbrella');
  await context.close();
});

test('SAML from the organization page with the keyboard alone', async () => {
  const org = await organization('kb-globex', 'Kb Globex');
  await samlConnection(org, 'Kb Globex Okta');
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/kb-globex`);
  await page.getByRole('heading', { name: 'Continue to Kb Globex' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Continue with Kb Globex Okta' }));
  await page.getByRole('heading', { name: 'Test IdP' }).waitFor();
  await typeInto(page, page.getByLabel('Email'), 'grace@globex.test');
  await typeInto(page, page.getByLabel('Password'), 'saml-password');
  await page.keyboard.press('Enter');
  await expectLoggedIn(page, 'grace@globex.test', 'Kb Globex');
  await context.close();
});
