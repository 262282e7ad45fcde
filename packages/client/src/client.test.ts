// createClient: browser checks and warnings, endpoints, bootstrap, usage errors, IST calls, revoke.
import type { ErrorType } from '@gatehouse/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './client.js';
import { GatehouseAPIError, GatehouseUsageError, isUnrecoverableError } from './errors.js';
import { apiError, installFakeApi, json, ok } from './test/fake-api.js';
import {
  IST,
  MEMBER_ID,
  PUBLIC_TOKEN,
  bootstrapData,
  discoveryResult,
  fullSession,
  mfaPending,
} from '@gatehouse/testing';
import {
  BASE_URL,
  cleanup,
  cookie,
  makeClient,
  setCookie,
  setSessionCookie,
  storedState,
} from './test/harness.js';

afterEach(cleanup);

const BOOTSTRAP = `/projects/bootstrap/${PUBLIC_TOKEN}`;

describe('createClient', () => {
  it('refuses to run outside a browser', () => {
    vi.stubGlobal('window', undefined);
    expect(() => createClient(PUBLIC_TOKEN)).toThrow(GatehouseUsageError);
  });

  it('warns about a malformed public token and about a duplicate client', () => {
    installFakeApi({ '/projects/bootstrap/pk_123': () => ok(bootstrapData()) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    makeClient({}, 'pk_123');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('public-token-');
    makeClient({}, 'pk_123');
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[2]?.[0]).toContain('another client already exists');
  });

  it('does not warn again once the earlier client is destroyed', () => {
    installFakeApi();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    makeClient().destroy();
    makeClient();
    expect(warn).not.toHaveBeenCalled();
  });

  it('sends every call to {sdkBase}/sdk/v1 without cookies', async () => {
    const api = installFakeApi({ '/b2b/organizations/search': () => ok({ organization: null }) });
    const client = makeClient();
    await client.organization.getBySlug({ organization_slug: 'acme' });
    expect(api.requests.map((r) => [r.method, r.url, r.credentials])).toEqual([
      ['GET', `${BASE_URL}/sdk/v1${BOOTSTRAP}`, 'same-origin'],
      ['POST', `${BASE_URL}/sdk/v1/b2b/organizations/search`, 'same-origin'],
    ]);
    expect(api.requests[0]?.body).toBeUndefined();
  });

  it('resolves hosts from endpoints, then baseUrl, then the page origin', () => {
    installFakeApi();
    expect(makeClient({ baseUrl: 'https://auth.acme.test/' }).endpoints).toEqual({
      sdkBackendURL: 'https://auth.acme.test',
      apiURL: 'https://auth.acme.test',
      clientsideServicesIframeURL: 'https://auth.acme.test/clientside-services/index.html',
    });
    cleanup();
    installFakeApi();
    const client = createClient(PUBLIC_TOKEN, {
      endpoints: {
        sdkBackendURL: 'https://sdk.acme.test/prefix',
        testAPIURL: 'https://test.acme.test',
        liveAPIURL: 'https://live.acme.test',
      },
    });
    expect(client.endpoints).toEqual({
      sdkBackendURL: 'https://sdk.acme.test/prefix',
      apiURL: 'https://test.acme.test',
      clientsideServicesIframeURL: `${window.location.origin}/clientside-services/index.html`,
    });
    client.destroy();
  });
});

describe('bootstrap', () => {
  it('maps the server answer, once, and caches it', async () => {
    const api = installFakeApi();
    const client = makeClient();
    const config = await client.bootstrap();
    expect(config).toMatchObject({
      displayWatermark: false,
      captchaSettings: { enabled: false },
      emailDomains: ['mail.acme.test'],
      slugPattern: 'http://localhost:3000/{{slug}}/login',
      createOrganizationEnabled: true,
      passwordConfig: null,
    });
    expect(config.rbacPolicy?.roles).toHaveLength(2);
    expect(client.getBootstrap()).toBe(config);
    await client.bootstrap();
    expect(api.requests.filter((r) => r.path === BOOTSTRAP)).toHaveLength(1);
    expect(localStorage.getItem(`gatehouse_sdk_state_${PUBLIC_TOKEN}::bootstrap`)).toContain(
      'mail.acme.test',
    );
  });

  it('maps password_config under LUDS', async () => {
    installFakeApi({
      [BOOTSTRAP]: () =>
        ok(bootstrapData({ password_config: { luds_complexity: 3, luds_minimum_count: 10 } })),
    });
    expect((await makeClient().bootstrap()).passwordConfig).toEqual({
      ludsComplexity: 3,
      ludsMinimumCount: 10,
    });
  });

  it.each([
    ['an API error', () => apiError(401, 'unauthorized_credentials')],
    ['an unreachable server', () => json(502, 'Bad gateway')],
    [
      'an answer without password_config',
      () => {
        const { password_config: _omitted, ...rest } = bootstrapData({
          disable_sdk_watermark: false,
        });
        return ok(rest);
      },
    ],
  ])('falls back to safe, uncached defaults on %s', async (_case, handler) => {
    installFakeApi({ [BOOTSTRAP]: handler });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = makeClient();
    expect(await client.bootstrap()).toEqual({
      displayWatermark: false,
      captchaSettings: { enabled: false },
      cnameDomain: null,
      emailDomains: [],
      pkceRequiredForEmailMagicLinks: false,
      pkceRequiredForPasswordResets: false,
      pkceRequiredForOAuth: false,
      pkceRequiredForSso: false,
      slugPattern: null,
      createOrganizationEnabled: false,
      passwordConfig: null,
      runDFPProtectedAuth: false,
      rbacPolicy: null,
      raw: null,
    });
    expect(localStorage.getItem(`gatehouse_sdk_state_${PUBLIC_TOKEN}::bootstrap`)).toBeNull();
  });

  it('serves the cached answer of an earlier page until the fetch completes', async () => {
    installFakeApi();
    await makeClient().bootstrap();
    cleanup();
    localStorage.setItem(
      `gatehouse_sdk_state_${PUBLIC_TOKEN}::bootstrap`,
      JSON.stringify(bootstrapData({ slug_pattern: 'https://cached.acme.test/{{slug}}' })),
    );
    installFakeApi({ [BOOTSTRAP]: () => new Promise<never>(() => undefined) });
    expect(makeClient().getBootstrap().slugPattern).toBe('https://cached.acme.test/{{slug}}');
  });
});

describe('usage errors before any request', () => {
  const cases: [string, (c: ReturnType<typeof makeClient>) => Promise<unknown>, string][] = [
    [
      'loginOrSignup without organization_id',
      (c) => c.magicLinks.email.loginOrSignup({ email_address: 'a@b.co' } as never),
      'organization_id is a required argument',
    ],
    [
      'loginOrSignup with a numeric email',
      (c) => c.magicLinks.email.loginOrSignup({ email_address: 1, organization_id: 'o' } as never),
      'email_address must be a string',
    ],
    [
      'discovery send with a numeric redirect',
      (c) =>
        c.magicLinks.email.discovery.send({
          email_address: 'a@b.co',
          discovery_redirect_url: 3,
        } as never),
      'discovery_redirect_url must be a string',
    ],
    [
      'authenticate with a string duration',
      (c) =>
        c.magicLinks.authenticate({
          magic_links_token: 't',
          session_duration_minutes: '60',
        } as never),
      'session_duration_minutes must be a number',
    ],
    [
      'discovery authenticate without a token',
      (c) => c.magicLinks.discovery.authenticate({} as never),
      'discovery_magic_links_token is a required argument',
    ],
    [
      'create without a duration',
      (c) => c.discovery.organizations.create({} as never),
      'session_duration_minutes is a required argument',
    ],
    [
      'exchange without an organization',
      (c) => c.discovery.intermediateSessions.exchange({ session_duration_minutes: 60 } as never),
      'organization_id is a required argument',
    ],
    [
      'getBySlug with no arguments',
      (c) => c.organization.getBySlug(undefined as never),
      'expected an object of arguments',
    ],
    [
      'member search without an e-mail',
      (c) => c.organization.members.search({ organization_id: 'o' } as never),
      'email_address is a required argument',
    ],
    [
      'session authenticate with NaN',
      (c) => c.session.authenticate({ session_duration_minutes: Number.NaN }),
      'session_duration_minutes must be a number',
    ],
    [
      'session exchange without a duration',
      (c) => c.session.exchange({ organization_id: 'o' } as never),
      'session_duration_minutes is a required argument',
    ],
    [
      'revoke with a string forceClear',
      (c) => c.session.revoke({ forceClear: 'yes' } as never),
      'forceClear must be a boolean',
    ],
  ];

  it.each(cases)('%s', async (_name, run, message) => {
    const api = installFakeApi();
    const client = makeClient();
    await client.bootstrap();
    const error = await run(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseUsageError);
    expect((error as Error).message).toContain(message);
    expect(api.calls()).toEqual([]);
  });
});

describe('intermediate session token', () => {
  it('adds the IST cookie to T calls and sends it to discovery list', async () => {
    const api = installFakeApi({
      '/b2b/discovery/organizations': () =>
        ok({
          email_address: 'ada@acme.test',
          discovered_organizations: [],
          organization_id_hint: null,
        }),
      '/b2b/discovery/intermediate_sessions/exchange': () => ok(mfaPending()),
      '/b2b/discovery/organizations/create': () => ok(fullSession()),
      '/b2b/magic_links/authenticate': () => ok({ ...mfaPending(), method_id: 'm' }),
    });
    setCookie('gatehouse_intermediate_session_token', IST);
    const client = makeClient();

    await client.discovery.organizations.list();
    await client.discovery.intermediateSessions.exchange({
      organization_id: 'o',
      session_duration_minutes: 60,
    });
    await client.magicLinks.authenticate({ magic_links_token: 't', session_duration_minutes: 60 });
    await client.discovery.organizations.create({ session_duration_minutes: 60 });

    expect(api.calls().map((r) => r.body)).toEqual([
      { intermediate_session_token: IST },
      { organization_id: 'o', session_duration_minutes: 60, intermediate_session_token: IST },
      { magic_links_token: 't', session_duration_minutes: 60, intermediate_session_token: IST },
      { session_duration_minutes: 60, intermediate_session_token: IST },
    ]);
    // The create gave a full session, which retires the IST.
    expect(cookie('gatehouse_intermediate_session_token')).toBeNull();
    expect(client.session.getSnapshot()?.member.member_id).toBe(MEMBER_ID);
  });

  it('sends an empty body to discovery list without an IST', async () => {
    const api = installFakeApi({ '/b2b/discovery/organizations': () => ok(discoveryResult()) });
    await makeClient().discovery.organizations.list();
    expect(api.calls()[0]?.body).toEqual({});
  });
});

describe('session methods', () => {
  async function signedIn(handlers: Parameters<typeof installFakeApi>[0]) {
    const api = installFakeApi({
      '/b2b/sessions/authenticate': () => ok(fullSession()),
      ...handlers,
    });
    setSessionCookie();
    setCookie('gatehouse_intermediate_session_token', 'stale');
    const client = makeClient();
    await client.session.authenticate();
    setCookie('gatehouse_intermediate_session_token', IST);
    return { api, client };
  }

  it('revoke sends no body, then clears state and all cookies', async () => {
    const { api, client } = await signedIn({
      '/b2b/sessions/revoke': () => ok({ request_id: 'r', status_code: 200 }),
    });
    await client.session.revoke();
    const revoke = api.calls().find((r) => r.path === '/b2b/sessions/revoke');
    expect(revoke?.body).toBeUndefined();
    expect(revoke?.headers['Content-Type']).toBe('application/json');
    expect(client.session.getSnapshot()).toBeNull();
    expect(storedState()).toBeNull();
    expect([cookie('gatehouse_session'), cookie('gatehouse_session_jwt')]).toEqual([null, null]);
    expect(cookie('gatehouse_intermediate_session_token')).toBeNull();
  });

  it('revoke keeps the session on a recoverable failure unless forceClear', async () => {
    const { client } = await signedIn({
      '/b2b/sessions/revoke': () => apiError(500, 'internal_server_error'),
    });
    await expect(client.session.revoke()).rejects.toBeInstanceOf(GatehouseAPIError);
    expect(client.session.getSnapshot()).not.toBeNull();
    await expect(client.session.revoke({ forceClear: true })).rejects.toBeInstanceOf(
      GatehouseAPIError,
    );
    expect(client.session.getSnapshot()).toBeNull();
  });

  it('revoke clears the session on an unrecoverable failure', async () => {
    const { client } = await signedIn({
      '/b2b/sessions/revoke': () => apiError(404, 'session_not_found'),
    });
    const error = await client.session.revoke().catch((e: unknown) => e);
    expect(isUnrecoverableError(error)).toBe(true);
    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
  });

  it('authenticate destroys the session on an unrecoverable error only', async () => {
    let response = () => apiError(429, 'too_many_requests');
    const { client } = await signedIn({});
    const api = installFakeApi({ '/b2b/sessions/authenticate': () => response() });
    await expect(client.session.authenticate()).rejects.toMatchObject({
      error_type: 'too_many_requests',
    });
    expect(client.session.getSnapshot()).not.toBeNull();
    response = () => apiError(401, 'unauthorized_credentials');
    await expect(
      client.session.authenticate({ session_duration_minutes: 30 }),
    ).rejects.toBeInstanceOf(GatehouseAPIError);
    expect(api.calls().map((r) => r.body)).toEqual([{}, { session_duration_minutes: 30 }]);
    expect(client.session.getSnapshot()).toBeNull();
  });
});

describe('isUnrecoverableError', () => {
  it('is true only for the two session-ending API error types', () => {
    const make = (error_type: ErrorType) =>
      new GatehouseAPIError({
        status_code: 401,
        error_type,
        error_message: '',
        error_url: '',
        request_id: '',
      });
    expect(isUnrecoverableError(make('unauthorized_credentials'))).toBe(true);
    expect(isUnrecoverableError(make('session_not_found'))).toBe(true);
    expect(isUnrecoverableError(make('intermediate_session_not_found'))).toBe(false);
    // Types Gatehouse never sends end nothing, even if some server sent them.
    expect(isUnrecoverableError(make('user_unauthenticated' as ErrorType))).toBe(false);
    expect(isUnrecoverableError(new Error('session_not_found'))).toBe(false);
  });
});
