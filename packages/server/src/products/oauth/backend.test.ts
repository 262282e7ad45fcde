// The management API's oauth.authenticate: a host backend redeems the oauth token a Google-style
// sign-in (a real OpenID provider started by the test) returned with, once, in its own project.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { OidcIdp } from '@gatehouse/testing/idp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, type Harness } from '../../test/harness.js';
import { TestBrowser, signInAtIdp } from '../../test/sso.js';
import { startGoogleOAuth } from './google-fixture.js';

const browser = new TestBrowser();

let h: Harness;
let google: OidcIdp;
let callback: string;

beforeAll(async () => {
  ({ h, google, callback } = await startGoogleOAuth());
  google.users.set('ada@acme.test', {
    password: 'pw-ada',
    name: 'Ada',
    claims: { hd: 'acme.test', picture: 'https://pictures.example/ada.png', locale: 'en-GB' },
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), google?.close()]);
});

/** Signs the seeded member in at the provider; returns the oauth token handed back. */
async function oauthToken(): Promise<string> {
  const query = new URLSearchParams({ public_token: h.project.public_token, slug: 'acme' });
  const start = await browser.navigate(`${h.url}/v1/b2b/public/oauth/google/start?${query}`);
  const authorize = new URL(start.location ?? '');
  const { callback: back } = await signInAtIdp(authorize.href, callback, {
    email: 'ada@acme.test',
    password: 'pw-ada',
  });
  if (!back) throw new Error('The provider did not return');
  const landed = await browser.navigate(back);
  const url = new URL(landed.location ?? '');
  expect(url.searchParams.get('stytch_token_type')).toBe('oauth');
  return url.searchParams.get('token') ?? '';
}

describe('management oauth.authenticate', () => {
  it("redeems the oauth token for a session with the provider's tokens and account id, once", async () => {
    const token = await oauthToken();
    const data = expectOk(
      await h.call(ENDPOINTS.backendOAuthAuthenticate, { body: { oauth_token: token } }),
    );
    expect(data.member_authenticated).toBe(true);
    expect(data.member_id).toBe(h.member.member_id);
    expect(data.organization_id).toBe(h.org.organization_id);
    expect(data.provider_type).toBe('google');
    expect(data.provider_subject).not.toBe('');
    expect(data.reset_sessions).toBe(false);
    expect(data.provider_values.access_token).not.toBe('');
    expect(data.member.oauth_registrations).toEqual([
      {
        provider_type: 'google',
        provider_subject: data.provider_subject,
        member_oauth_registration_id: expect.stringMatching(/.+/) as string,
        profile_picture_url: 'https://pictures.example/ada.png',
        locale: 'en-GB',
      },
    ]);
    const again = await h.call(ENDPOINTS.backendOAuthAuthenticate, {
      body: { oauth_token: token },
    });
    expect([again.status, again.error?.error_type]).toEqual([404, 'oauth_token_not_found']);
  });

  it("refuses another project's secret key, leaving the token unspent", async () => {
    const token = await oauthToken();
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const foreign = await h.call(ENDPOINTS.backendOAuthAuthenticate, {
      body: { oauth_token: token },
      authorization: basic(other.project_id, other.secret),
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'oauth_token_not_found']);
    const mine = await h.call(ENDPOINTS.backendOAuthAuthenticate, { body: { oauth_token: token } });
    expect(mine.status).toBe(200);
  });

  it('keeps the browser answer as it was: no provider_subject there', async () => {
    const token = await oauthToken();
    const res = await h.call(ENDPOINTS.oauthAuthenticate, {
      body: { oauth_token: token, session_duration_minutes: 60 },
    });
    expect(expectOk(res)).not.toHaveProperty('provider_subject');
  });
});
