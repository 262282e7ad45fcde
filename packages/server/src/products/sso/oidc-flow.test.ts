// OIDC SSO end to end over HTTP against a real OpenID provider (oidc-provider) started by the
// test: authorization code with PKCE, state and nonce, and the refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  navigate as navigateElsewhere,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';

// The browser of these tests: sign-ins return to the browser that started them.
const browser = new TestBrowser();
const navigate = (url: string) => browser.navigate(url);

let h: Harness;
let idp: OidcIdp;
let connectionId: string;
let callbackUrl: string;

const CLIENT = { clientId: 'gatehouse-test', clientSecret: 'a-client-secret-of-some-length' };

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  ({ connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, idp, CLIENT));
  idp.users.set('lin@acme.test', { password: 'correct horse', name: 'Lin Okafor' });
  idp.users.set('ada@acme.test', { password: 'ada-password', name: 'Ada' });
  idp.users.set('unverified@acme.test', { password: 'pw-unverified', emailVerified: false });
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

/** Starts at our server and signs in at the provider; returns the callback URL it sends back. */
async function signIn(email: string, password: string): Promise<string> {
  const start = await navigate(startUrl(h, connectionId));
  expect(start.status).toBe(302);
  const authorize = new URL(start.location ?? '');
  expect(authorize.href.startsWith(idp.issuer)).toBe(true);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('nonce')).toBeTruthy();
  const { callback } = await signInAtIdp(authorize.href, callbackUrl, { email, password });
  if (!callback) throw new Error('The provider did not return');
  return callback;
}

function expectRefusal(res: Awaited<ReturnType<typeof navigate>>, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.location).toBeNull();
  expect(res.text).toContain(`<code id="error-type">${type}</code>`);
}

describe('OIDC sign-in', () => {
  it('JIT-provisions a new member from the ID token and signs them in', async () => {
    const back = await navigate(await signIn('lin@acme.test', 'correct horse'));
    expect(back.status).toBe(302);
    const result = expectOk(
      await h.call(ENDPOINTS.ssoAuthenticate, {
        body: { sso_token: ssoTokenOf(back.location), session_duration_minutes: 60 },
      }),
    );
    expect(result.member_authenticated).toBe(true);
    expect(result.member.email_address).toBe('lin@acme.test');
    expect(result.member.name).toBe('Lin Okafor');
    expect(result.member_session?.authentication_factors[0]).toMatchObject({
      type: 'sso',
      delivery_method: 'oidc_sso',
    });
  });

  it('answers a callback once: the same code and state again is refused', async () => {
    const callback = await signIn('ada@acme.test', 'ada-password');
    expect((await navigate(callback)).status).toBe(302);
    expectRefusal(await navigate(callback), 400, 'invalid_oidc_response');
  });

  it('refuses a state it never issued', async () => {
    const callback = new URL(await signIn('ada@acme.test', 'ada-password'));
    callback.searchParams.set('state', 'forged-state-value');
    expectRefusal(await navigate(callback.href), 400, 'invalid_oidc_response');
  });

  it('refuses an ID token whose nonce is not the one of the request', async () => {
    const ssoTokens = async () =>
      (await h.db.selectFrom('tokens').select('id').where('kind', '=', 'sso').execute()).length;
    const before = await ssoTokens();
    const callback = await signIn('ada@acme.test', 'ada-password');
    await h.db
      .updateTable('sso_requests')
      .set({ nonce: 'another-nonce' })
      .where('used_at', 'is', null)
      .execute();
    expectRefusal(await navigate(callback), 400, 'invalid_oidc_response');
    expect(await ssoTokens()).toBe(before);
  });

  it('refuses an address the provider has not verified', async () => {
    const back = await navigate(await signIn('unverified@acme.test', 'pw-unverified'));
    expectRefusal(back, 403, 'sso_email_not_verified');
    const rows = await h.db
      .selectFrom('members')
      .select('id')
      .where('email', '=', 'unverified@acme.test')
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('shows the provider refusing the sign-in as an error page', async () => {
    const start = await navigate(startUrl(h, connectionId));
    const state = new URL(start.location ?? '').searchParams.get('state') ?? '';
    const denied = new URL(callbackUrl);
    denied.search = new URLSearchParams({ error: 'access_denied', state }).toString();
    expectRefusal(await navigate(denied.href), 400, 'invalid_oidc_response');
  });

  it('stores the client secret sealed, never in the clear', async () => {
    const row = await h.db
      .selectFrom('sso_connections')
      .select('secret_encrypted')
      .where('id', '=', connectionId)
      .executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(CLIENT.clientSecret);
    expect(row.secret_encrypted?.startsWith('v1.')).toBe(true);
  });
});

describe('login CSRF', () => {
  it('refuses a callback in a browser other than the one that started, and spends it', async () => {
    const callback = await signIn('ada@acme.test', 'ada-password');
    expectRefusal(await navigateElsewhere(callback), 400, 'invalid_oidc_response');
    expect((await navigate(callback)).status).toBe(400);
  });
});
