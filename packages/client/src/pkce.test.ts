// PKCE pairs: format, challenge derivation, per-namespace storage, and their use by magic links.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPkceStore, generatePkcePair } from './pkce.js';
import { storageKeys } from './storage.js';
import { apiError, installFakeApi, ok } from './test/fake-api.js';
import { PUBLIC_TOKEN, bootstrapData, discoveryResult, fullSession } from '@gatehouse/testing';
import { cleanup, makeClient } from './test/harness.js';

afterEach(cleanup);

const keys = storageKeys(PUBLIC_TOKEN);
const expectedChallenge = (verifier: string) =>
  createHash('sha256').update(verifier).digest('base64url');

describe('generatePkcePair', () => {
  it('makes a 32–128 character lowercase hex verifier and its unpadded base64url SHA-256', async () => {
    for (let i = 0; i < 20; i++) {
      const { code_verifier, code_challenge } = await generatePkcePair();
      expect(code_verifier).toMatch(/^[0-9a-f]{32,128}$/);
      expect(code_challenge).toBe(expectedChallenge(code_verifier));
      expect(code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('hex-encodes 16 random 32-bit words, each padded to two digits', async () => {
    const words = [0, 1, 0xf, 0x10, 0xff, 0x100, 0xffffffff, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    vi.spyOn(crypto, 'getRandomValues').mockImplementation((array) => {
      (array as Uint32Array).set(words);
      return array;
    });
    const { code_verifier } = await generatePkcePair();
    expect(code_verifier).toBe('0001' + '0f10ff100ffffffff' + '0708090a0b0c0d0e0f');
  });
});

describe('PKCE store', () => {
  it('keeps one pair per namespace under the PKCE_VERIFIER key', async () => {
    const store = createPkceStore(keys);
    const pair = await store.getOrCreate('magic_links');
    expect(
      JSON.parse(
        localStorage.getItem(`gatehouse_sdk_state_${PUBLIC_TOKEN}::PKCE_VERIFIER:magic_links`) ??
          '',
      ),
    ).toEqual(pair);
    expect(await store.getOrCreate('magic_links')).toEqual(pair);
    expect(store.get('oauth')).toBeNull();

    const fresh = await store.create('magic_links');
    expect(fresh.code_verifier).not.toBe(pair.code_verifier);
    store.clear('magic_links');
    expect(store.get('magic_links')).toBeNull();
  });

  it('warns about and drops a malformed stored pair', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem(keys.pkce('sso'), JSON.stringify({ verifier: 'x' }));
    expect(createPkceStore(keys).get('sso')).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('malformed stored PKCE pair'));
    expect(localStorage.getItem(keys.pkce('sso'))).toBeNull();
  });
});

describe('magic links with PKCE', () => {
  const pkceBootstrap = () => ok(bootstrapData({ pkce_required_for_email_magic_links: true }));

  it('sends one reused challenge on login-or-signup and discovery sends when required', async () => {
    const api = installFakeApi({
      [`/projects/bootstrap/${PUBLIC_TOKEN}`]: pkceBootstrap,
      '/b2b/magic_links/email/login_or_signup': () => ok({ request_id: 'r', status_code: 200 }),
      '/b2b/magic_links/email/discovery/send': () => ok({ request_id: 'r', status_code: 200 }),
    });
    const client = makeClient();
    await client.magicLinks.email.loginOrSignup({
      email_address: 'ada@acme.test',
      organization_id: 'o',
    });
    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });

    const stored = createPkceStore(keys).get('magic_links');
    expect(stored).not.toBeNull();
    const [first, second] = api.calls();
    expect(first?.body).toEqual({
      email_address: 'ada@acme.test',
      organization_id: 'o',
      pkce_code_challenge: stored?.code_challenge,
    });
    expect(second?.body).toEqual({
      email_address: 'ada@acme.test',
      pkce_code_challenge: stored?.code_challenge,
    });
  });

  it('sends no challenge when the project does not require it', async () => {
    const api = installFakeApi({
      '/b2b/magic_links/email/login_or_signup': () => ok({ request_id: 'r', status_code: 200 }),
    });
    const client = makeClient();
    await client.magicLinks.email.loginOrSignup({
      email_address: 'ada@acme.test',
      organization_id: 'o',
    });
    expect(api.calls()[0]?.body).toEqual({ email_address: 'ada@acme.test', organization_id: 'o' });
    expect(createPkceStore(keys).get('magic_links')).toBeNull();
  });

  it('sends the verifier on authenticate and clears the pair on success', async () => {
    const api = installFakeApi({
      '/b2b/magic_links/authenticate': () => ok({ ...fullSession(), method_id: 'm' }),
    });
    const pair = await createPkceStore(keys).create('magic_links');
    const client = makeClient();
    await client.magicLinks.authenticate({ magic_links_token: 't', session_duration_minutes: 60 });
    expect(api.calls()[0]?.body).toEqual({
      magic_links_token: 't',
      session_duration_minutes: 60,
      pkce_code_verifier: pair.code_verifier,
    });
    expect(createPkceStore(keys).get('magic_links')).toBeNull();
  });

  it('keeps the pair when authenticate fails, so the link can be retried', async () => {
    installFakeApi({
      '/b2b/magic_links/authenticate': () => apiError(404, 'magic_link_not_found'),
    });
    await createPkceStore(keys).create('magic_links');
    const client = makeClient();
    await expect(
      client.magicLinks.authenticate({ magic_links_token: 't', session_duration_minutes: 60 }),
    ).rejects.toMatchObject({ error_type: 'magic_link_not_found' });
    expect(createPkceStore(keys).get('magic_links')).not.toBeNull();
  });

  it('tries the passwords verifier first and retries once with the magic-link one on a PKCE error', async () => {
    const store = createPkceStore(keys);
    const passwords = await store.create('passwords');
    const magicLinks = await store.create('magic_links');
    const api = installFakeApi({
      '/b2b/magic_links/authenticate': (request) =>
        (request.body as { pkce_code_verifier?: string }).pkce_code_verifier ===
        magicLinks.code_verifier
          ? ok({ ...fullSession(), method_id: 'm' })
          : apiError(400, 'pkce_mismatch', 'The pkce_code_verifier does not match the challenge.'),
    });
    const client = makeClient();
    await client.magicLinks.authenticate({ magic_links_token: 't', session_duration_minutes: 60 });
    const verifiers = api
      .calls()
      .map((r) => (r.body as { pkce_code_verifier?: string }).pkce_code_verifier);
    expect(verifiers).toEqual([passwords.code_verifier, magicLinks.code_verifier]);
    expect(store.get('magic_links')).toBeNull();
    expect(store.get('passwords')).not.toBeNull();
  });

  it('sends the verifier on discovery authenticate and clears the pair', async () => {
    const api = installFakeApi({
      '/b2b/magic_links/discovery/authenticate': () => ok(discoveryResult()),
    });
    const pair = await createPkceStore(keys).create('magic_links');
    const client = makeClient();
    await client.magicLinks.discovery.authenticate({ discovery_magic_links_token: 'd' });
    expect(api.calls()[0]?.body).toEqual({
      discovery_magic_links_token: 'd',
      pkce_code_verifier: pair.code_verifier,
    });
    expect(createPkceStore(keys).get('magic_links')).toBeNull();
  });
});
