// SSO and OAuth starts: exact navigation URLs and parameter order, fresh PKCE pairs, usage errors.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatehouseUsageError } from './errors.js';
import { createPkceStore } from './pkce.js';
import { storageKeys } from './storage.js';
import { installFakeApi, ok } from './test/fake-api.js';
import { PUBLIC_TOKEN, bootstrapData } from '@gatehouse/testing';
import { BASE_URL, cleanup, makeClient } from './test/harness.js';

let navigations: string[];
beforeEach(() => {
  navigations = [];
  vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => {
    navigations.push(String(url));
  });
});
afterEach(cleanup);

const pkce = () => createPkceStore(storageKeys(PUBLIC_TOKEN));
const withBootstrap = (overrides: Parameters<typeof bootstrapData>[0]) =>
  installFakeApi({ [`/projects/bootstrap/${PUBLIC_TOKEN}`]: () => ok(bootstrapData(overrides)) });

describe('sso.start', () => {
  it('navigates to the API base with parameters in protocol order and a new challenge', async () => {
    withBootstrap({ pkce_required_for_sso: true });
    const stale = await pkce().create('sso');
    const client = makeClient();
    await client.sso.start({
      connection_id: 'saml-connection-test-1',
      signup_redirect_url: 'https://app.acme.test/signup',
      login_redirect_url: 'https://app.acme.test/login?x=1',
    });
    const pair = pkce().get('sso');
    expect(pair?.code_verifier).not.toBe(stale.code_verifier);
    expect(navigations).toEqual([
      `${BASE_URL}/v1/public/sso/start?public_token=${PUBLIC_TOKEN}&connection_id=saml-connection-test-1` +
        `&pkce_code_challenge=${pair?.code_challenge}` +
        '&login_redirect_url=https%3A%2F%2Fapp.acme.test%2Flogin%3Fx%3D1' +
        '&signup_redirect_url=https%3A%2F%2Fapp.acme.test%2Fsignup',
    ]);
  });

  it('sends only the connection without PKCE, and clears a stale pair', async () => {
    withBootstrap({});
    await pkce().create('sso');
    const client = makeClient();
    await client.sso.start({ connection_id: 'oidc-connection-test-1' });
    expect(navigations).toEqual([
      `${BASE_URL}/v1/public/sso/start?public_token=${PUBLIC_TOKEN}&connection_id=oidc-connection-test-1`,
    ]);
    expect(pkce().get('sso')).toBeNull();
  });
});

describe('oauth starts', () => {
  it('orders organization, scopes, provider parameters, challenge and redirects', async () => {
    withBootstrap({ pkce_required_for_oauth: true });
    const client = makeClient();
    await client.oauth.google.start({
      organization_id: 'organization-test-1',
      custom_scopes: ['openid', 'email'],
      provider_params: { prompt: 'select_account', login_hint: 'ada@acme.test' },
      login_redirect_url: 'https://app.acme.test/login',
    });
    const challenge = pkce().get('oauth')?.code_challenge;
    expect(navigations).toEqual([
      `${BASE_URL}/v1/b2b/public/oauth/google/start?public_token=${PUBLIC_TOKEN}` +
        '&organization_id=organization-test-1&custom_scopes=openid+email' +
        '&provider_prompt=select_account&provider_login_hint=ada%40acme.test' +
        `&pkce_code_challenge=${challenge}&login_redirect_url=https%3A%2F%2Fapp.acme.test%2Flogin`,
    ]);
  });

  it('uses the slug when no organization id is given, and the CNAME base when set', async () => {
    withBootstrap({ cname_domain: 'login.acme.test' });
    const client = makeClient();
    await client.oauth.microsoft.start({ slug: 'acme' });
    expect(navigations).toEqual([
      `https://login.acme.test/v1/b2b/public/oauth/microsoft/start?public_token=${PUBLIC_TOKEN}&slug=acme`,
    ]);
  });

  it('starts discovery with scopes, parameters and the discovery redirect', async () => {
    withBootstrap({});
    const client = makeClient();
    await client.oauth.google.discovery.start({
      discovery_redirect_url: 'https://app.acme.test/discover',
      provider_params: { hd: 'acme.test' },
    });
    expect(navigations).toEqual([
      `${BASE_URL}/v1/b2b/public/oauth/google/discovery/start?public_token=${PUBLIC_TOKEN}` +
        '&provider_hd=acme.test&discovery_redirect_url=https%3A%2F%2Fapp.acme.test%2Fdiscover',
    ]);
  });

  it('rejects a start without organization or slug, or with bad parameters, before navigating', async () => {
    withBootstrap({});
    const client = makeClient();
    await expect(client.oauth.google.start({})).rejects.toBeInstanceOf(GatehouseUsageError);
    await expect(
      client.oauth.google.start({ slug: 'acme', provider_params: { prompt: 1 } as never }),
    ).rejects.toThrow('provider_params must be an object of strings');
    await expect(client.sso.start({} as never)).rejects.toThrow(
      'connection_id is a required argument',
    );
    expect(navigations).toEqual([]);
  });
});
