// Google and Microsoft sign-in in the browser, against OpenID providers started by the test as
// stand-ins: the widget's buttons, the provider's login form, and back to the app signed in.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { inboxIds, manageDemo, useBrowserAndDemo } from './harness.js';
import { expectLoggedIn, pressOn, typeInto, waitForSmsCode } from './steps.js';

const env = useBrowserAndDemo();
let google: OidcIdp;
let microsoft: OidcIdp;
const HOOLI_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

/** Registers our callback at a stand-in provider and turns the provider on for the demo project. */
async function connect(provider: 'google' | 'microsoft', idp: OidcIdp): Promise<void> {
  const client = { clientId: `demo-${provider}`, clientSecret: `${provider}-client-secret` };
  idp.addClient({
    ...client,
    redirectUris: [`${env.demo.url}/v1/b2b/public/oauth/${provider}/callback`],
  });
  await manageDemo(env.demo, 'PUT', `/v1/b2b/oauth/providers/${provider}`, {
    enabled: true,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    issuer: idp.issuer,
  });
}

beforeAll(async () => {
  // Microsoft's stand-in has its layout: a tenant issuer behind the multi-tenant `common` document.
  [google, microsoft] = await Promise.all([
    startOidcIdp(),
    startOidcIdp({ tenantId: HOOLI_TENANT }),
  ]);
  google.users.set('gavin@hooli.test', {
    password: 'google-password',
    name: 'Gavin Belson',
    claims: { hd: 'hooli.test' },
  });
  microsoft.users.set('monica@hooli.test', { password: 'microsoft-password', name: 'Monica' });
  await connect('google', google);
  await connect('microsoft', microsoft);
  // Microsoft vouches for no address by itself: Hooli trusts its own Entra tenant.
  await manageDemo(env.demo, 'POST', '/v1/b2b/organizations', {
    organization_name: 'Hooli',
    organization_slug: 'hooli',
    email_allowed_domains: ['hooli.test'],
    allowed_oauth_tenants: { microsoft: [HOOLI_TENANT] },
  });
  await manageDemo(env.demo, 'POST', '/v1/b2b/organizations', {
    organization_name: 'Links Only',
    organization_slug: 'links-only',
    auth_methods: 'RESTRICTED',
    allowed_auth_methods: ['magic_link'],
  });
});

afterAll(async () => {
  await Promise.all([google?.close(), microsoft?.close()]);
});

async function signInAtProvider(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('heading', { name: 'Test OpenID provider' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('Google from the organization page: a Workspace account of the domain joins and is signed in', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/hooli`);
  await page.getByRole('heading', { name: 'Continue to Hooli' }).waitFor();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, 'gavin@hooli.test', 'google-password');
  await expectLoggedIn(page, 'gavin@hooli.test', 'Hooli');
  expect(new URL(page.url()).search).toBe('');
  await context.close();
});

test('discovery with Microsoft lists the organizations, and picking one signs in', async () => {
  const admin = env.demo.app.gatehouse;
  const hooli = await admin.getOrganizationBySlug(env.demo.projectId, 'hooli');
  await admin.createMember(env.demo.projectId, hooli!.organization_id, {
    email_address: 'monica@hooli.test',
  });
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page.getByRole('button', { name: 'Continue with Microsoft' }).click();
  await signInAtProvider(page, 'monica@hooli.test', 'microsoft-password');
  await page.getByText('Select an organization to continue').waitFor();
  await page.getByRole('button', { name: 'Hooli', exact: true }).click();
  await expectLoggedIn(page, 'monica@hooli.test', 'Hooli');
  await context.close();
});

test('an organization that does not allow Google shows no Google button, and refuses a forced start', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.demo.url}/_app/org/links-only`);
  await page.getByRole('heading', { name: 'Continue to Links Only' }).waitFor();
  await page.getByRole('button', { name: 'Continue with email' }).waitFor();
  expect(await page.getByRole('button', { name: 'Continue with Google' }).count()).toBe(0);
  const query = new URLSearchParams({ public_token: env.demo.publicToken, slug: 'links-only' });
  await page.goto(`${env.demo.url}/v1/b2b/public/oauth/google/start?${query.toString()}`);
  expect(await page.locator('#error-type').textContent()).toBe('auth_method_not_allowed');
  await page.close();
});

test('an organization that requires MFA asks for a text-message code after Google', async () => {
  await manageDemo(env.demo, 'POST', '/v1/b2b/organizations', {
    organization_name: 'Strict Hooli',
    organization_slug: 'strict-hooli',
    email_allowed_domains: ['hooli.test'],
    mfa_policy: 'REQUIRED_FOR_ALL',
  });
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/strict-hooli`);
  await page.getByRole('heading', { name: 'Continue to Strict Hooli' }).waitFor();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, 'gavin@hooli.test', 'google-password');
  await page.getByRole('heading', { name: 'Set up Multi-Factor Authentication' }).waitFor();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  const seen = await inboxIds(env.demo.url);
  await page.getByLabel('Phone number').fill('4155550199');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Enter passcode' }).waitFor();
  await page.getByLabel('Passcode').fill(await waitForSmsCode(env.demo.url, '+14155550199', seen));
  await expectLoggedIn(page, 'gavin@hooli.test', 'Strict Hooli');
  await context.close();
});

test('Microsoft discovery with the keyboard alone', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Continue with Microsoft' }));
  await page.getByRole('heading', { name: 'Test OpenID provider' }).waitFor();
  await typeInto(page, page.getByLabel('Email'), 'monica@hooli.test');
  await typeInto(page, page.getByLabel('Password'), 'microsoft-password');
  await page.keyboard.press('Enter');
  await page.getByText('Select an organization to continue').waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Hooli', exact: true }));
  await expectLoggedIn(page, 'monica@hooli.test', 'Hooli');
  await context.close();
});
