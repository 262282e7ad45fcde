/** `createClient`: wires transport, session store, refresh, PKCE, bootstrap, telemetry and RBAC. */
import {
  CAPTCHA_PATHS,
  PATHS,
  type Ack,
  type AuthResult,
  type FullSessionResult,
} from '@gatehouse/protocol';
import { loadBootstrap } from './bootstrap.js';
import type { Captcha } from './captcha.js';
import type { ClientContext } from './context.js';
import { createTokenCookies } from './cookies.js';
import { GatehouseCaptchaError, GatehouseUsageError, isUnrecoverableError } from './errors.js';
import { createDiscoveryMethods } from './discovery.js';
import { createFederatedMethods } from './federated.js';
import { GOOGLE_IDENTITY_SCRIPT_URL } from './one-tap.js';
import { createTransport } from './http.js';
import { createMagicLinkMethods } from './magic-links.js';
import { createMfaMethods } from './mfa.js';
import { createOrganizationMethods } from './organizations.js';
import { createPasswordMethods } from './passwords.js';
import { createPkceStore } from './pkce.js';
import { allPermissions, isAuthorized } from './rbac.js';
import { createRefreshLoop } from './refresh.js';
import { createSessionStore, type ApplicableResult } from './session-store.js';
import { storageKeys } from './storage.js';
import { createTelemetryIdentity, createTelemetryQueue } from './telemetry.js';
import type { ClientOptions, GatehouseClient, ResolvedEndpoints } from './types.js';
import { check } from './validate.js';

const PUBLIC_TOKEN_PREFIX = 'public-token-';
const SERVICES_PAGE_PATH = '/clientside-services/index.html';

/** Live clients per public token, to warn about duplicates (they would refresh and sync twice). */
const liveClients = new Map<string, number>();

/**
 * Creates the browser client for one project. Fetches bootstrap once, restores the stored
 * session (destroying it when its cookie is gone), and starts the refresh loop.
 *
 * @throws GatehouseUsageError outside a browser or without a public token.
 * @example
 * const client = createClient('public-token-test-…', { baseUrl: 'https://auth.example.com' });
 * await client.magicLinks.email.loginOrSignup({ email_address, organization_id });
 */
export function createClient(publicToken: string, options: ClientOptions = {}): GatehouseClient {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new GatehouseUsageError('The Gatehouse client can only be created in a browser.');
  }
  if (typeof publicToken !== 'string' || publicToken === '') {
    throw new GatehouseUsageError('createClient: publicToken must be a non-empty string.');
  }
  if (!publicToken.startsWith(PUBLIC_TOKEN_PREFIX)) {
    console.warn(
      `Gatehouse: the public token "${publicToken}" looks malformed; it should start with "${PUBLIC_TOKEN_PREFIX}".`,
    );
  }
  const count = liveClients.get(publicToken) ?? 0;
  if (count > 0) {
    console.warn(
      'Gatehouse: another client already exists for this public token; create one client per page and share it.',
    );
  }
  liveClients.set(publicToken, count + 1);

  const endpoints = resolveEndpoints(publicToken, options);
  const keys = storageKeys(publicToken, options.storagePrefix);
  const cookies = createTokenCookies(options.cookieOptions);
  const store = createSessionStore(keys.state, cookies);
  const pkce = createPkceStore(keys);
  const header = createTelemetryIdentity(keys.persistentId, () => {
    const state = store.getSnapshot();
    return { memberId: state?.member.member_id, memberSessionId: state?.session.member_session_id };
  });
  const transport = createTransport({
    publicToken,
    sdkBase: endpoints.sdkBackendURL,
    getSessionToken: () => cookies.readSessionToken(),
    telemetryHeader: header,
  });
  const telemetry = createTelemetryQueue({
    publicToken,
    header,
    post: (items) => transport.postEvents(items),
  });
  // One Tap is served on the API base (docs/protocol.md §1), with the same headers.
  const apiTransport = createTransport({
    publicToken,
    sdkBase: endpoints.apiURL,
    getSessionToken: () => cookies.readSessionToken(),
    telemetryHeader: header,
  });
  const bootstrap = loadBootstrap(keys.bootstrap, () =>
    transport.request('GET', PATHS.bootstrap(publicToken)),
  );

  // Loaded only when the project has captcha on, so other pages never download it.
  let captcha: Promise<Captcha> | null = null;
  const captchaToken = async () => {
    if (!(await bootstrap.ready).captchaSettings.enabled) return undefined;
    captcha ??= import('./captcha.js').then(
      (m) => m.createCaptcha(bootstrap, options.captcha),
      (error: unknown) => {
        captcha = null;
        throw new GatehouseCaptchaError(`Its code did not load (${String(error)}).`);
      },
    );
    return (await captcha).token();
  };
  // D calls carry a fresh captcha token when the project has captcha on (docs/protocol.md §7).
  const post = async <T>(path: string, body: object) => {
    const captcha_token = CAPTCHA_PATHS.has(path) ? await captchaToken() : undefined;
    return transport.request<T>(
      'POST',
      path,
      captcha_token === undefined ? body : { ...body, captcha_token },
    );
  };
  const intermediateToken = () => cookies.readIntermediateSessionToken() ?? undefined;
  const applied = <T extends ApplicableResult>(result: T): T => {
    store.apply(result);
    return result;
  };
  const roles = () => store.getSnapshot()?.session.roles ?? [];

  const policy = async () => {
    const config = await bootstrap.ready;
    if (!config.rbacPolicy) {
      console.warn('Gatehouse: the RBAC policy could not be fetched; denying every permission.');
    }
    return config.rbacPolicy;
  };

  const refresh = createRefreshLoop({
    store,
    cookies,
    authenticate: () => post<FullSessionResult>(PATHS.sessionsAuthenticate, {}),
    lockName: `gatehouse_refresh:${publicToken}`,
    leaseKey: keys.refreshLease,
  });

  const context: ClientContext = {
    post,
    get: <T>(path: string) => transport.request<T>('GET', path),
    api: {
      post: <T>(path: string, body: object) => apiTransport.request<T>('POST', path, body),
      get: <T>(path: string) => apiTransport.request<T>('GET', path),
    },
    applied,
    intermediateToken,
    pkce,
    bootstrap,
    publicToken,
    endpoints,
    navigate: (url) => window.location.assign(url),
  };

  let destroyed = false;

  const client: GatehouseClient = {
    publicToken,
    endpoints,

    bootstrap: () => bootstrap.ready,
    getBootstrap: () => bootstrap.current(),

    session: {
      getSnapshot: () => store.getSnapshot(),
      subscribe: (listener) => store.subscribe(listener),
      getTokens() {
        const session_token = cookies.readSessionToken();
        if (!session_token) return null;
        return { session_token, session_jwt: cookies.readSessionJwt() ?? '' };
      },
      getIntermediateSessionToken: () => cookies.readIntermediateSessionToken(),

      async authenticate(args = {}) {
        check('session.authenticate', args, { session_duration_minutes: 'number?' });
        try {
          return applied(await post<FullSessionResult>(PATHS.sessionsAuthenticate, args));
        } catch (error) {
          if (isUnrecoverableError(error)) store.destroy();
          throw error;
        }
      },

      async revoke(args = {}) {
        check('session.revoke', args, { forceClear: 'boolean?' });
        try {
          const ack = await transport.request<Ack>('POST', PATHS.sessionsRevoke);
          store.destroy({ clearIntermediateSession: true });
          return ack;
        } catch (error) {
          if (args.forceClear || isUnrecoverableError(error)) {
            store.destroy({ clearIntermediateSession: true });
          }
          throw error;
        }
      },

      async exchange(args) {
        check('session.exchange', args, {
          organization_id: 'string',
          session_duration_minutes: 'number',
          locale: 'string?',
        });
        return applied(await post<AuthResult>(PATHS.sessionsExchange, args));
      },
    },

    magicLinks: createMagicLinkMethods(context),
    discovery: createDiscoveryMethods(context),
    organization: createOrganizationMethods(context),
    passwords: createPasswordMethods(context),
    ...createMfaMethods(context),
    ...createFederatedMethods(context, options.googleOneTapScriptUrl ?? GOOGLE_IDENTITY_SCRIPT_URL),

    rbac: {
      isAuthorizedSync(resourceId, action) {
        check(
          'rbac.isAuthorizedSync',
          { resourceId, action },
          { resourceId: 'string', action: 'string' },
        );
        return isAuthorized(bootstrap.current().rbacPolicy, roles(), resourceId, action);
      },
      async isAuthorized(resourceId, action) {
        check(
          'rbac.isAuthorized',
          { resourceId, action },
          { resourceId: 'string', action: 'string' },
        );
        return isAuthorized(await policy(), roles(), resourceId, action);
      },
      async allPermissions() {
        return allPermissions(await policy(), roles());
      },
    },

    logEvent(name, details) {
      telemetry.log(name, details);
    },

    destroy() {
      if (destroyed) return;
      destroyed = true;
      refresh.stop();
      store.close();
      telemetry.flush();
      telemetry.stop();
      const remaining = (liveClients.get(publicToken) ?? 1) - 1;
      if (remaining > 0) liveClients.set(publicToken, remaining);
      else liveClients.delete(publicToken);
    },
  };

  refresh.start();
  return client;
}

/**
 * Hosts from the options: an `endpoints` entry wins, then the `baseUrl` shorthand, then the
 * page's own origin (Gatehouse is often served behind the app's reverse proxy).
 */
function resolveEndpoints(publicToken: string, options: ClientOptions): ResolvedEndpoints {
  const base = (options.baseUrl ?? window.location.origin).replace(/\/+$/, '');
  const e = options.endpoints ?? {};
  const isTest = publicToken.includes('public-token-test');
  return {
    sdkBackendURL: e.sdkBackendURL ?? base,
    apiURL: (isTest ? e.testAPIURL : e.liveAPIURL) ?? base,
    clientsideServicesIframeURL: e.clientsideServicesIframeURL ?? `${base}${SERVICES_PAGE_PATH}`,
  };
}
