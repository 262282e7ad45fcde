// Google One Tap: the client ID from the API base, the library loaded only when One Tap is on,
// the prompt's outcomes reported, and a credential submitted with a fresh PKCE challenge.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_TOKEN, bootstrapData } from '@gatehouse/testing';
import { createPkceStore } from './pkce.js';
import { storageKeys } from './storage.js';
import { apiError, installFakeApi, ok } from './test/fake-api.js';
import { BASE_URL, cleanup, makeClient } from './test/harness.js';

const START = '/b2b/oauth/google/onetap/start';
const SUBMIT = '/b2b/oauth/google/onetap/submit';
const DISCOVERY_SUBMIT = '/b2b/oauth/google/onetap/discovery/submit';
const CLIENT_ID = 'one-tap-client.apps.test';

type Moment = Record<string, () => unknown>;

/** Google's library as the page sees it once loaded: records what it is told, answers as told. */
function installIdentity(moments: Moment[]) {
  const seen: { options?: { client_id: string; callback: (r: { credential?: string }) => void } } =
    {};
  const identity = {
    initialize: vi.fn((options: NonNullable<typeof seen.options>) => {
      seen.options = options;
    }),
    prompt: vi.fn((listener?: (moment: Moment) => void) => {
      for (const moment of moments) listener?.(moment);
    }),
    cancel: vi.fn(),
  };
  window.google = { accounts: { id: identity } };
  return {
    identity,
    /** Hands the page a credential, as Google does when the user picks an account. */
    credential(idToken: string) {
      seen.options?.callback({ credential: idToken });
    },
    options: () => seen.options,
  };
}

const displayed: Moment = { isDisplayMoment: () => true, isDisplayed: () => true };
const skipped = (reason: string): Moment => ({
  isDisplayMoment: () => false,
  isSkippedMoment: () => true,
  getSkippedReason: () => reason,
});
const notDisplayed = (reason: string): Moment => ({
  isDisplayMoment: () => true,
  isNotDisplayed: () => true,
  getNotDisplayedReason: () => reason,
});

let navigations: string[];
beforeEach(() => {
  navigations = [];
  vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => {
    navigations.push(String(url));
  });
});
afterEach(() => {
  delete window.google;
  document.querySelectorAll('script[data-gatehouse-one-tap]').forEach((s) => s.remove());
  cleanup();
});

describe('oauth.googleOneTap.start', () => {
  it('does not load the library when the project has One Tap off', async () => {
    const api = installFakeApi({ [START]: () => ok({ google_client_id: '' }) });
    const client = makeClient({ googleOneTapScriptUrl: 'https://gsi.test/client' });
    const result = await client.oauth.googleOneTap.start({
      organization_id: 'organization-test-1',
    });
    expect(result).toEqual({ success: false, reason: 'oauth_config_not_found' });
    expect(document.querySelector('script[data-gatehouse-one-tap]')).toBeNull();
    expect(api.calls().map((c) => c.url)).toEqual([`${BASE_URL}/sdk/v1${START}`]);
  });

  it('reports the error type of a failed start call', async () => {
    installFakeApi({ [START]: () => apiError(400, 'default_provider_not_allowed') });
    const client = makeClient();
    const result = await client.oauth.googleOneTap.start({
      organization_id: 'organization-test-1',
    });
    expect(result).toEqual({ success: false, reason: 'default_provider_not_allowed' });
  });

  it('injects the configured library once and reports when it cannot load', async () => {
    installFakeApi({ [START]: () => ok({ google_client_id: CLIENT_ID }) });
    const client = makeClient({ googleOneTapScriptUrl: 'https://gsi.test/client' });
    const pending = client.oauth.googleOneTap.start({ organization_id: 'organization-test-1' });
    await vi.waitFor(() => {
      expect(document.querySelectorAll('script[data-gatehouse-one-tap]')).toHaveLength(1);
    });
    const script = document.querySelector<HTMLScriptElement>('script[data-gatehouse-one-tap]');
    expect(script?.src).toBe('https://gsi.test/client');
    script?.dispatchEvent(new Event('error'));
    expect(await pending).toEqual({ success: false, reason: 'unknown_reason' });
  });

  it('shows the prompt for the project client and submits the credential with a new challenge', async () => {
    const api = installFakeApi({
      [`/projects/bootstrap/${PUBLIC_TOKEN}`]: () =>
        ok(bootstrapData({ pkce_required_for_oauth: true })),
      [START]: () => ok({ google_client_id: CLIENT_ID }),
      [SUBMIT]: () =>
        ok({ redirect_url: 'https://app.acme.test/login?stytch_token_type=oauth&token=t' }),
    });
    const google = installIdentity([displayed]);
    const client = makeClient();
    const result = await client.oauth.googleOneTap.start({
      organization_id: 'organization-test-1',
      login_redirect_url: 'https://app.acme.test/login',
      signup_redirect_url: 'https://app.acme.test/signup',
    });
    expect(result).toEqual({ success: true });
    expect(google.options()?.client_id).toBe(CLIENT_ID);

    google.credential('header.payload.signature');
    await vi.waitFor(() => expect(navigations).toHaveLength(1));
    const pair = createPkceStore(storageKeys(PUBLIC_TOKEN)).get('oauth');
    const submit = api.calls().find((c) => c.path === SUBMIT);
    expect(submit?.url).toBe(`${BASE_URL}/sdk/v1${SUBMIT}`);
    expect(submit?.body).toEqual({
      id_token: 'header.payload.signature',
      organization_id: 'organization-test-1',
      login_redirect_url: 'https://app.acme.test/login',
      signup_redirect_url: 'https://app.acme.test/signup',
      pkce_code_challenge: pair?.code_challenge,
    });
    expect(navigations).toEqual(['https://app.acme.test/login?stytch_token_type=oauth&token=t']);
  });

  it('hands a failed submit to onOneTapError and stays on the page', async () => {
    installFakeApi({
      [START]: () => ok({ google_client_id: CLIENT_ID }),
      [SUBMIT]: () => apiError(403, 'invalid_email_for_jit_provisioning'),
    });
    const google = installIdentity([displayed]);
    const errors: unknown[] = [];
    const client = makeClient();
    await client.oauth.googleOneTap.start({
      organization_id: 'organization-test-1',
      onOneTapError: (error) => errors.push(error),
    });
    google.credential('header.payload.signature');
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toMatchObject({ error_type: 'invalid_email_for_jit_provisioning' });
    expect(navigations).toEqual([]);
  });

  it("reports Google's reasons: not displayed, and skipped by the user", async () => {
    installFakeApi({ [START]: () => ok({ google_client_id: CLIENT_ID }) });
    installIdentity([notDisplayed('unregistered_origin')]);
    const client = makeClient();
    expect(
      await client.oauth.googleOneTap.start({ organization_id: 'organization-test-1' }),
    ).toEqual({ success: false, reason: 'unregistered_origin' });

    installIdentity([skipped('user_cancel')]);
    const cancelled: string[] = [];
    expect(
      await client.oauth.googleOneTap.start({
        organization_id: 'organization-test-1',
        onOneTapCancelled: (reason) => cancelled.push(reason),
      }),
    ).toEqual({ success: false, reason: 'user_cancel' });
    expect(cancelled).toEqual(['user_cancel']);
  });

  it('refuses a call without an organization before any request', async () => {
    const api = installFakeApi();
    const client = makeClient();
    await expect(
      client.oauth.googleOneTap.start({} as { organization_id: string }),
    ).rejects.toThrow('oauth.googleOneTap.start: organization_id is a required argument.');
    expect(api.calls()).toEqual([]);
  });
});

describe('oauth.googleOneTap.discovery.start', () => {
  it('submits for discovery without PKCE when bootstrap does not ask for it', async () => {
    const api = installFakeApi({
      [START]: () => ok({ google_client_id: CLIENT_ID }),
      [DISCOVERY_SUBMIT]: () =>
        ok({
          redirect_url: 'https://app.acme.test/discover?stytch_token_type=discovery_oauth&token=t',
        }),
    });
    const google = installIdentity([displayed]);
    const client = makeClient();
    await client.oauth.googleOneTap.discovery.start({
      discovery_redirect_url: 'https://app.acme.test/discover',
    });
    google.credential('header.payload.signature');
    await vi.waitFor(() => expect(navigations).toHaveLength(1));
    expect(api.calls().find((c) => c.path === DISCOVERY_SUBMIT)?.body).toEqual({
      id_token: 'header.payload.signature',
      discovery_redirect_url: 'https://app.acme.test/discover',
    });
    expect(navigations[0]).toContain('stytch_token_type=discovery_oauth');
  });
});
