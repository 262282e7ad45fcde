// Google One Tap in the browser: the demo loads a local stand-in for Google Identity Services,
// whose prompt hands over an ID token signed by the test OpenID provider standing in for Google.
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  startGoogleIdentityStandIn,
  startOidcIdp,
  type GoogleIdentityStandIn,
  type OidcIdp,
} from '@gatehouse/testing/idp';
import { manageDemo, useBrowserAndDemo } from './harness.js';
import { expectLoggedIn } from './steps.js';

const ONE_TAP_CLIENT = 'demo-one-tap.apps.test';
let google: OidcIdp;
let gsi: GoogleIdentityStandIn;

beforeAll(async () => {
  [google, gsi] = await Promise.all([startOidcIdp(), startGoogleIdentityStandIn()]);
});
const env = useBrowserAndDemo(() => ({ googleOneTapScriptUrl: gsi.scriptUrl }));

beforeAll(async () => {
  google.addClient({
    clientId: 'demo-google',
    clientSecret: 'google-client-secret',
    redirectUris: [`${env.demo.url}/v1/b2b/public/oauth/google/callback`],
  });
  await manageDemo(env.demo, 'PUT', '/v1/b2b/oauth/providers/google', {
    enabled: true,
    client_id: 'demo-google',
    client_secret: 'google-client-secret',
    issuer: google.issuer,
    onetap_client_id: ONE_TAP_CLIENT,
  });
  await manageDemo(env.demo, 'POST', '/v1/b2b/organizations', {
    organization_name: 'Pied Piper',
    organization_slug: 'pied-piper',
    email_allowed_domains: ['piedpiper.test'],
  });
  gsi.accounts.set(ONE_TAP_CLIENT, {
    email: 'richard@piedpiper.test',
    idToken: await google.signIdToken({
      sub: 'richard',
      aud: ONE_TAP_CLIENT,
      email: 'richard@piedpiper.test',
      email_verified: true,
      hd: 'piedpiper.test',
      name: 'Richard Hendricks',
    }),
  });
});

afterAll(async () => {
  await Promise.all([google?.close(), gsi?.close()]);
});

test('One Tap on the organization page: the account Google offers joins by domain and is signed in', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app/org/pied-piper`);
  await page.getByRole('heading', { name: 'Continue to Pied Piper' }).waitFor();
  const prompt = page.getByRole('dialog', { name: 'Sign in with Google' });
  await prompt.getByRole('button', { name: 'Continue as richard@piedpiper.test' }).click();
  await expectLoggedIn(page, 'richard@piedpiper.test', 'Pied Piper');
  expect(new URL(page.url()).search).toBe('');
  await context.close();
});

test("closing the prompt says 'One Tap could not load' with the reason", async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  await page
    .getByRole('dialog', { name: 'Sign in with Google' })
    .getByRole('button', { name: 'Close' })
    .click();
  await page.getByText('One Tap could not load (user_cancel)').waitFor();
  await context.close();
});
