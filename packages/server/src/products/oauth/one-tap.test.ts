// Google One Tap over HTTP: ID tokens issued by a real OpenID provider (oidc-provider, standing
// in for Google) to the project's One Tap client, verified with the provider's JWKS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { signInAtIdp } from '../../test/sso.js';

let h: Harness;
let google: OidcIdp;
const ONE_TAP = { clientId: 'one-tap-client', clientSecret: 'one-tap-secret-value' };
const OTHER = { clientId: 'some-other-app', clientSecret: 'other-app-secret-value' };
const CALLBACK = 'http://127.0.0.1:9/one-tap-test';

beforeAll(async () => {
  [h, google] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  google.addClient({ ...ONE_TAP, redirectUris: [CALLBACK] });
  google.addClient({ ...OTHER, redirectUris: [CALLBACK] });
  google.users.set('ada@acme.test', {
    password: 'pw-ada',
    name: 'Ada',
    claims: { hd: 'acme.test' },
  });
  google.users.set('new@acme.test', {
    password: 'pw-new',
    name: 'New',
    claims: { hd: 'acme.test' },
  });
  google.users.set('unverified@acme.test', { password: 'pw-u', emailVerified: false });
  // A personal Google account that uses a company address.
  google.users.set('solo@acme.test', { password: 'pw-solo', name: 'Solo' });
  expectOk(
    await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'google' },
      body: {
        enabled: true,
        client_id: 'web-client',
        client_secret: 'web-client-secret',
        issuer: google.issuer,
        onetap_client_id: ONE_TAP.clientId,
      },
    }),
  );
});

afterAll(async () => {
  await Promise.all([h?.close(), google?.close()]);
});

/** An ID token the provider issues to `client` for this person, as Google hands One Tap one. */
async function idTokenFor(
  client: { clientId: string; clientSecret: string },
  email: string,
  password: string,
): Promise<string> {
  const config = await oidc.discovery(
    new URL(google.issuer),
    client.clientId,
    client.clientSecret,
    undefined,
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const { callback } = await signInAtIdp(url.href, CALLBACK, { email, password });
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callback ?? ''), {
    pkceCodeVerifier: verifier,
  });
  return tokens.id_token ?? '';
}

const submit = (id_token: string) =>
  h.call(ENDPOINTS.oneTapSubmit, {
    body: { id_token, organization_id: h.org.organization_id },
  });

describe('One Tap', () => {
  it('tells the page the One Tap client ID', async () => {
    expect(expectOk(await h.call(ENDPOINTS.oneTapStart)).google_client_id).toBe(ONE_TAP.clientId);
  });

  it('turns a credential into a redirect carrying an oauth token that signs in', async () => {
    const credential = await idTokenFor(ONE_TAP, 'ada@acme.test', 'pw-ada');
    const { redirect_url } = expectOk(await submit(credential));
    const url = new URL(redirect_url);
    expect(url.searchParams.get('stytch_token_type')).toBe('oauth');
    const result = expectOk(
      await h.call(ENDPOINTS.oauthAuthenticate, {
        body: { oauth_token: url.searchParams.get('token') ?? '', session_duration_minutes: 60 },
      }),
    );
    expect(result.member.member_id).toBe(h.member.member_id);
    expect(result.provider_values.id_token).toBe(credential);
  });

  it('hands discovery the address', async () => {
    const credential = await idTokenFor(ONE_TAP, 'new@acme.test', 'pw-new');
    const { redirect_url } = expectOk(
      await h.call(ENDPOINTS.oneTapDiscoverySubmit, { body: { id_token: credential } }),
    );
    const token = new URL(redirect_url).searchParams.get('token') ?? '';
    const found = expectOk(
      await h.call(ENDPOINTS.oauthDiscoveryAuthenticate, {
        body: { discovery_oauth_token: token },
      }),
    );
    expect(found.email_address).toBe('new@acme.test');
    expect(found.discovered_organizations.map((d) => d.membership.type)).toEqual([
      'eligible_to_join_by_email_domain',
    ]);
  });

  it('does not offer a personal account the organization of its address domain', async () => {
    const credential = await idTokenFor(ONE_TAP, 'solo@acme.test', 'pw-solo');
    const { redirect_url } = expectOk(
      await h.call(ENDPOINTS.oneTapDiscoverySubmit, { body: { id_token: credential } }),
    );
    const token = new URL(redirect_url).searchParams.get('token') ?? '';
    const found = expectOk(
      await h.call(ENDPOINTS.oauthDiscoveryAuthenticate, {
        body: { discovery_oauth_token: token },
      }),
    );
    expect(found.discovered_organizations).toEqual([]);
    const exchange = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: found.intermediate_session_token,
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect(expectError(exchange).error_type).toBe('member_not_found');
    // Nor through the organization flow.
    expect(expectError(await submit(credential)).error_type).toBe(
      'invalid_email_for_jit_provisioning',
    );
  });

  it('refuses a credential for another app, a changed one, an unverified address, and garbage', async () => {
    const foreign = await idTokenFor(OTHER, 'ada@acme.test', 'pw-ada');
    expect(expectError(await submit(foreign)).error_type).toBe('invalid_oidc_response');

    const genuine = await idTokenFor(ONE_TAP, 'ada@acme.test', 'pw-ada');
    const [header, payload, signature] = genuine.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(JSON.stringify({ ...claims, email: 'boss@acme.test' })).toString(
      'base64url',
    );
    expect(expectError(await submit(`${header}.${forged}.${signature}`)).error_type).toBe(
      'invalid_oidc_response',
    );

    const unverified = await idTokenFor(ONE_TAP, 'unverified@acme.test', 'pw-u');
    expect(expectError(await submit(unverified)).error_type).toBe('oauth_email_not_verified');
    expect(expectError(await submit('not-a-jwt')).error_type).toBe('invalid_oidc_response');
  });

  it('refuses an expired credential and one signed by a key the provider does not publish', async () => {
    const claims = {
      sub: 'ada',
      aud: ONE_TAP.clientId,
      email: 'ada@acme.test',
      email_verified: true,
    };
    const control = await google.signIdToken(claims);
    expect(expectOk(await submit(control)).redirect_url).toContain('stytch_token_type=oauth');
    const expired = await google.signIdToken(claims, { expiresIn: -120 });
    const refusal = expectError(await submit(expired));
    expect(refusal.error_type).toBe('invalid_oidc_response');
    expect(refusal.error_message).toContain('"exp" claim timestamp check failed');
    const unknownKey = await google.signIdToken(claims, { withUnknownKey: true });
    expect(expectError(await submit(unknownKey)).error_type).toBe('invalid_oidc_response');
  });
});
