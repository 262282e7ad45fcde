// The provider's published prebuilt B2B UI, 4.13 and 6.x, on a page of another origin than the
// server: discovery sign-in by e-mail link, password sign-in, authenticator-app enrolment, and
// (6.x's headless client) a password reset in discovery.
// 6.x sends every call with credentials, so each answer must allow them for the page's origin.
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_ORG_SLUG } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import { totpCode } from './steps.js';
import {
  SDK_LINES,
  startPublishedSdkSite,
  type PublishedSdkSite,
  type SdkLine,
} from './published-sdk/server.js';

const env = useBrowserAndDemo();
let site: PublishedSdkSite;

const PASSWORD = 'Quartz-Lantern-Orbit-42';

beforeAll(async () => {
  site = await startPublishedSdkSite(env.demo.url, env.demo.publicToken);
});

afterAll(async () => {
  await site?.close();
});

/**
 * A page of the SDK line in a fresh browser context, served from localhost while the server is
 * on 127.0.0.1, so every call is cross-origin. Collects the server's answers to the page.
 */
async function openSdkPage(line: SdkLine, path = ''): Promise<{ page: Page; answers: Response[] }> {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const answers: Response[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${env.demo.url}/sdk/v1/`)) answers.push(response);
  });
  await page.goto(`${site.url(line)}${path}`);
  return { page, answers };
}

/**
 * The UI's success screen, the SDK's session and its cookie on the page's origin; and every
 * answer of the server shared with exactly that origin, credentials allowed.
 */
async function expectSignedIn(page: Page, answers: Response[]): Promise<void> {
  await page.getByText('You have successfully logged in.').waitFor();
  const session = await page.evaluate<{ member_id: string } | null>(
    'window.sdkClient.session.getSync()',
  );
  expect(session?.member_id).toMatch(/^member-test-/);
  const origin = new URL(page.url()).origin;
  const cookies = await page.context().cookies(origin);
  expect(cookies.map((c) => c.name)).toContain('stytch_session');
  expect(answers.length).toBeGreaterThan(0);
  for (const answer of answers) {
    const headers = answer.headers();
    expect(headers['access-control-allow-origin']).toBe(origin);
    expect(headers['access-control-allow-credentials']).toBe('true');
  }
}

/** Asks the server for a sign-in link to `email` through the UI's first screen, and follows it. */
async function followDiscoveryLink(page: Page, email: string): Promise<void> {
  await page.getByText('Sign up or log in').waitFor();
  const seen = await inboxIds(env.demo.url);
  await page.locator('input[type=email]').fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').first().waitFor();
  const { link } = await waitForEmailLink(env.demo.url, email, 'discovery', seen);
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);
  await page.goto(link);
  await page.getByText('Select an organization to continue').waitFor();
}

describe.each(Object.keys(SDK_LINES) as SdkLine[])('the published SDK %s', (line) => {
  test('signs in through discovery with an e-mail link', async () => {
    const { page, answers } = await openSdkPage(line);
    await followDiscoveryLink(page, DEMO_ADMIN_EMAIL);
    await page.getByText('Acme Corp').click();
    await expectSignedIn(page, answers);
    await page.context().close();
  });

  test('signs in to an organization with a password', async () => {
    const admin = env.demo.app.gatehouse;
    const acme = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
    const email = `password-${line.replace('.', '-')}@acme.test`;
    const member = await admin.createMember(env.demo.projectId, acme!.organization_id, {
      email_address: email,
    });
    await admin.setMemberPassword(env.demo.projectId, member.member_id, { password: PASSWORD });
    // The organization flow finds its organization in the page's URL by the slug pattern.
    await admin.updateProject(env.demo.projectId, {
      slugPattern: `${site.url(line)}org/{{slug}}`,
    });

    const { page, answers } = await openSdkPage(line, `org/${DEMO_ORG_SLUG}`);
    await page.getByText('Continue to Acme Corp').waitFor();
    await page.getByText('Use a password instead').click();
    await page.getByText('Log in with email and password').waitFor();
    await page.locator('input[type=email]').fill(email);
    await page.locator('input[type=password]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectSignedIn(page, answers);
    await page.context().close();
  });

  test('enrols an authenticator app when the organization requires MFA', async () => {
    const admin = env.demo.app.gatehouse;
    const slug = `totp-${line.replace('.', '-')}`;
    const org = await admin.createOrganization(env.demo.projectId, {
      organization_name: `Totp ${line}`,
      organization_slug: slug,
    });
    await admin.updateOrganization(env.demo.projectId, org.organization_id, {
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    const email = `member@${slug}.test`;
    await admin.createMember(env.demo.projectId, org.organization_id, { email_address: email });

    const { page, answers } = await openSdkPage(line);
    await followDiscoveryLink(page, email);
    await page.getByText(`Totp ${line}`).click();
    await page.getByText('Set up Multi-Factor Authentication').waitFor();
    await page.getByText('Use an authenticator app').click();
    await page.getByText('Scan the QR code to link your authenticator app').waitFor();
    await page.getByText('Having trouble scanning?').click();
    await page.getByText('Having trouble scanning the QR code?').waitFor();
    // The secret is shown in lowercase groups of four, one line each.
    const shown = await page.locator('#widget').innerText();
    const secret = shown
      .split('\n')
      .filter((text) => /^[a-z2-7]{1,4}$/.test(text.trim()))
      .join('')
      .toUpperCase();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByText('Enter verification code').waitFor();
    await page.locator('#widget input').first().click();
    await page.keyboard.type(totpCode(secret));
    await page.getByText('Save your backup codes!').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await expectSignedIn(page, answers);
    await page.context().close();
  });
});

describe('the published SDK 6.x headless client', () => {
  test('resets a password in discovery and lists the organizations it signs in to', async () => {
    const admin = env.demo.app.gatehouse;
    const acme = await admin.getOrganizationBySlug(env.demo.projectId, DEMO_ORG_SLUG);
    const email = 'discovery-reset-6@acme.test';
    await admin.createMember(env.demo.projectId, acme!.organization_id, { email_address: email });
    const { page, answers } = await openSdkPage('6.x');
    const seen = await inboxIds(env.demo.url);
    await page.evaluate(
      `window.sdkClient.passwords.discovery.resetByEmailStart({ email_address: ${JSON.stringify(email)} })`,
    );
    // The link says `discovery`, as the provider's reset page expects.
    const { link } = await waitForEmailLink(env.demo.url, email, 'discovery', seen);
    const token = new URL(link).searchParams.get('token') ?? '';
    const found = await page.evaluate<{
      email_address: string;
      discovered_organizations: { organization: { organization_slug: string } }[];
    }>(
      `window.sdkClient.passwords.discovery.resetByEmail(${JSON.stringify({
        password_reset_token: token,
        password: PASSWORD,
      })})`,
    );
    expect(found.email_address).toBe(email);
    expect(found.discovered_organizations.map((d) => d.organization.organization_slug)).toContain(
      DEMO_ORG_SLUG,
    );
    // Every answer was shared with the page, credentials and all.
    const origin = new URL(page.url()).origin;
    for (const answer of answers) {
      expect(answer.headers()['access-control-allow-origin']).toBe(origin);
      expect(answer.headers()['access-control-allow-credentials']).toBe('true');
    }
    const signedIn = await admin.getMemberByEmail(env.demo.projectId, acme!.organization_id, email);
    expect(signedIn?.member_password_id).not.toBe('');
    await page.context().close();
  });
});
