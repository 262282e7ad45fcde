// Google-style OAuth end to end over HTTP against a real OpenID provider (oidc-provider) started
// by the test: provider settings, the organization flow with JIT by domain, discovery, and the
// refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { OidcIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, type Harness } from '../../test/harness.js';
import { TestBrowser, signInAtIdp } from '../../test/sso.js';
import { GOOGLE_CLIENT, startGoogleOAuth } from './google-fixture.js';

let h: Harness;
let google: OidcIdp;
let callback: string;

beforeAll(async () => {
  ({ h, google, callback } = await startGoogleOAuth());
  google.users.set('grace@acme.test', {
    password: 'pw-grace',
    name: 'Grace',
    claims: { hd: 'acme.test' },
  });
  google.users.set('ada@acme.test', {
    password: 'pw-ada',
    name: 'Ada',
    claims: { hd: 'acme.test' },
  });
  google.users.set('personal@acme.test', { password: 'pw-personal' });
  google.users.set('unverified@acme.test', {
    password: 'pw-unverified',
    emailVerified: false,
    claims: { hd: 'acme.test' },
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), google?.close()]);
});

function startUrl(extra: Record<string, string> = {}, path = 'start'): string {
  const query = new URLSearchParams({ public_token: h.project.public_token, ...extra });
  return `${h.url}/v1/b2b/public/oauth/google/${path}?${query.toString()}`;
}

// The browser of these tests: sign-ins return to the browser that started them.
const browser = new TestBrowser();
const navigate = (url: string) => browser.navigate(url);

/** Starts at our server and signs in at the provider; returns the callback URL it sends back. */
async function signIn(email: string, password: string, start = startUrl({ slug: 'acme' })) {
  const res = await navigate(start);
  expect(res.status).toBe(302);
  const authorize = new URL(res.location ?? '');
  expect(authorize.href.startsWith(google.issuer)).toBe(true);
  const { callback: back } = await signInAtIdp(authorize.href, callback, { email, password });
  if (!back) throw new Error('The provider did not return');
  return back;
}

function expectRefusal(res: Awaited<ReturnType<typeof navigate>>, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.location).toBeNull();
  expect(res.text).toContain(`<code id="error-type">${type}</code>`);
}

function tokenOf(location: string | null, type: string): string {
  const url = new URL(location ?? '');
  expect(url.searchParams.get('stytch_token_type')).toBe(type);
  return url.searchParams.get('token') ?? '';
}

describe('provider settings', () => {
  it('shows the settings without the secret, and stores the secret sealed', async () => {
    const { providers } = expectOk(await h.call(ENDPOINTS.oauthProviders));
    const settings = providers.find((p) => p.provider === 'google');
    expect(settings).toMatchObject({
      enabled: true,
      client_id: GOOGLE_CLIENT.clientId,
      client_secret_set: true,
      issuer: google.issuer,
      redirect_uri: callback,
    });
    expect(providers.find((p) => p.provider === 'microsoft')?.enabled).toBe(false);
    expect(JSON.stringify(providers)).not.toContain(GOOGLE_CLIENT.clientSecret);
    const rows = await h.db.selectFrom('oauth_providers').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(GOOGLE_CLIENT.clientSecret);
  });

  it('refuses a provider turned on without a client, or with an issuer that does not answer', async () => {
    const bare = await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'microsoft' },
      body: { enabled: true },
    });
    expect(expectError(bare).error_type).toBe('invalid_request');
    const broken = await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'microsoft' },
      body: { enabled: true, client_id: 'x', client_secret: 'y', issuer: `${h.url}/nothing` },
    });
    expect(expectError(broken).error_type).toBe('oidc_discovery_failed');
    const unknown = await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'github' },
      body: { enabled: false },
    });
    expect(expectError(unknown).error_type).toBe('invalid_request');
  });
});

describe('organization flow', () => {
  it('adds a Workspace account of an allowed domain as a member and signs it in', async () => {
    const back = await navigate(await signIn('grace@acme.test', 'pw-grace'));
    expect(back.status).toBe(302);
    const token = tokenOf(back.location, 'oauth');
    const result = expectOk(
      await h.call(ENDPOINTS.oauthAuthenticate, {
        body: { oauth_token: token, session_duration_minutes: 60 },
      }),
    );
    expect(result.member_authenticated).toBe(true);
    expect(result.member.email_address).toBe('grace@acme.test');
    expect(result.provider_values.access_token).not.toBe('');
    expect(result.provider_values.scopes).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(result.member_session?.authentication_factors[0]).toMatchObject({
      type: 'oauth',
      delivery_method: 'oauth_google',
    });
    const rows = await h.db
      .selectFrom('tokens')
      .select('details')
      .where('kind', '=', 'oauth')
      .execute();
    expect(JSON.stringify(rows)).not.toContain(result.provider_values.access_token);
    // Once only.
    const again = await h.call(ENDPOINTS.oauthAuthenticate, {
      body: { oauth_token: token, session_duration_minutes: 60 },
    });
    expect(expectError(again).error_type).toBe('oauth_token_not_found');
  });

  it('signs an existing member in through the login URL', async () => {
    const back = await navigate(await signIn('ada@acme.test', 'pw-ada'));
    expect(back.location?.startsWith('http://localhost:3000/authenticate?')).toBe(true);
    const result = expectOk(
      await h.call(ENDPOINTS.oauthAuthenticate, {
        body: { oauth_token: tokenOf(back.location, 'oauth'), session_duration_minutes: 60 },
      }),
    );
    expect(result.member.member_id).toBe(h.member.member_id);
  });

  it('does not let a personal Google account with a company address join', async () => {
    expectRefusal(
      await navigate(await signIn('personal@acme.test', 'pw-personal')),
      403,
      'invalid_email_for_jit_provisioning',
    );
  });

  it('refuses an address the provider has not verified', async () => {
    expectRefusal(
      await navigate(await signIn('unverified@acme.test', 'pw-unverified')),
      403,
      'oauth_email_not_verified',
    );
  });
});

describe('refusals', () => {
  it('refuses a reused state and a state it never issued', async () => {
    const back = await signIn('ada@acme.test', 'pw-ada');
    expect((await navigate(back)).status).toBe(302);
    expectRefusal(await navigate(back), 400, 'invalid_oidc_response');
    const forged = new URL(back);
    forged.searchParams.set('state', 'never-issued');
    expectRefusal(await navigate(forged.href), 400, 'invalid_oidc_response');
  });

  it('refuses a callback in a browser other than the one that started, and spends the state', async () => {
    const back = await signIn('ada@acme.test', 'pw-ada');
    const stranger = new TestBrowser();
    await stranger.navigate(startUrl({ slug: 'acme' }));
    expectRefusal(await stranger.navigate(back), 400, 'invalid_oidc_response');
    expectRefusal(await new TestBrowser().navigate(back), 400, 'invalid_oidc_response');
    const res = await navigate(back);
    expectRefusal(res, 400, 'invalid_oidc_response');
    expect(res.text).toContain('already answered');

    const fresh = await signIn('ada@acme.test', 'pw-ada');
    const refused = await new TestBrowser().navigate(fresh);
    expect(refused.text).toContain('started in another browser');
  });

  it('refuses an ID token whose nonce is not the request’s', async () => {
    const back = await signIn('ada@acme.test', 'pw-ada');
    await h.db
      .updateTable('oauth_requests')
      .set({ nonce: 'another' })
      .where('used_at', 'is', null)
      .execute();
    expectRefusal(await navigate(back), 400, 'invalid_oidc_response');
  });

  it('refuses to start for a provider that is off, an unlisted URL, or an organization without it', async () => {
    const off = new URL(startUrl({ slug: 'acme' }).replace('/google/', '/microsoft/'));
    expectRefusal(await navigate(off.href), 400, 'oauth_provider_not_configured');
    expectRefusal(
      await navigate(startUrl({ slug: 'acme', login_redirect_url: 'https://evil.example/x' })),
      400,
      'invalid_redirect_url',
    );
    await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Links only',
      organization_slug: 'links-only',
      auth_methods: 'RESTRICTED',
      allowed_auth_methods: ['magic_link'],
    });
    expectRefusal(await navigate(startUrl({ slug: 'links-only' })), 403, 'auth_method_not_allowed');
    expectRefusal(await navigate(startUrl({ slug: 'nope' })), 404, 'organization_not_found');
  });

  it('does not take an oauth token as an sso token', async () => {
    const back = await navigate(await signIn('ada@acme.test', 'pw-ada'));
    const token = tokenOf(back.location, 'oauth');
    const asSso = await h.call(ENDPOINTS.ssoAuthenticate, {
      body: { sso_token: token, session_duration_minutes: 60 },
    });
    expect(expectError(asSso).error_type).toBe('sso_token_not_found');
  });
});

describe('discovery', () => {
  it('hands the verified address to discovery, which lists its organizations', async () => {
    const back = await navigate(
      await signIn('ada@acme.test', 'pw-ada', startUrl({}, 'discovery/start')),
    );
    const token = tokenOf(back.location, 'discovery_oauth');
    expect(back.location?.startsWith('http://localhost:3000/discovery?')).toBe(true);
    const result = expectOk(
      await h.call(ENDPOINTS.oauthDiscoveryAuthenticate, {
        body: { discovery_oauth_token: token },
      }),
    );
    expect(result.email_address).toBe('ada@acme.test');
    expect(result.discovered_organizations.map((d) => d.organization.organization_slug)).toContain(
      'acme',
    );
    expect(result.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('does not offer a personal account with a company address the organization of its domain', async () => {
    const back = await navigate(
      await signIn('personal@acme.test', 'pw-personal', startUrl({}, 'discovery/start')),
    );
    const token = tokenOf(back.location, 'discovery_oauth');
    const result = expectOk(
      await h.call(ENDPOINTS.oauthDiscoveryAuthenticate, {
        body: { discovery_oauth_token: token },
      }),
    );
    expect(result.email_address).toBe('personal@acme.test');
    expect(result.discovered_organizations).toEqual([]);
    // Asking to enter anyway is checked again.
    const exchange = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: result.intermediate_session_token,
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect(expectError(exchange).error_type).toBe('member_not_found');
    const joined = await h.admin.getMemberByEmail(
      h.project.project_id,
      h.org.organization_id,
      'personal@acme.test',
    );
    expect(joined).toBeNull();
  });

  it('lets the Workspace account of the domain join through discovery', async () => {
    google.users.set('lin@acme.test', { password: 'pw-lin', claims: { hd: 'acme.test' } });
    const back = await navigate(
      await signIn('lin@acme.test', 'pw-lin', startUrl({}, 'discovery/start')),
    );
    const result = expectOk(
      await h.call(ENDPOINTS.oauthDiscoveryAuthenticate, {
        body: { discovery_oauth_token: tokenOf(back.location, 'discovery_oauth') },
      }),
    );
    expect(result.discovered_organizations.map((d) => d.membership.type)).toEqual([
      'eligible_to_join_by_email_domain',
    ]);
    const entered = expectOk(
      await h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: result.intermediate_session_token,
          organization_id: h.org.organization_id,
          session_duration_minutes: 60,
        },
      }),
    );
    expect(entered.member.email_address).toBe('lin@acme.test');
  });
});
