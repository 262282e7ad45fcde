/** An in-memory GatehouseClient for widget tests: records every call, answers as each test says. */
import {
  GatehouseAPIError,
  type BootstrapConfig,
  type GatehouseClient,
  type SessionState,
} from '@gatehouse/client';
import { ERROR_STATUS, type Ack, type ErrorType } from '@gatehouse/protocol';
import { BASE_URL, PUBLIC_TOKEN, bootstrapData } from './fixtures.js';

type AsyncMethod = (...args: never[]) => Promise<unknown>;

/** Dotted paths of the client's asynchronous methods: `'magicLinks.email.loginOrSignup'`, … */
type PathsOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends AsyncMethod
    ? `${Prefix}${K}`
    : T[K] extends (...args: never[]) => unknown
      ? never
      : PathsOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

type At<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : Path extends keyof T
    ? T[Path]
    : never;

/**
 * A client call a test can answer. Bootstrap and RBAC are answered by the fake itself, from
 * `setBootstrap`.
 */
export type FakeMethod = Exclude<PathsOf<GatehouseClient>, 'bootstrap' | `rbac.${string}`>;

/** The signature of a call: what the widget passes, what the real client resolves with. */
type MethodOf<M extends FakeMethod> =
  At<GatehouseClient, M> extends (...args: infer A) => infer R ? (...args: A) => R : never;

/** The argument a call was made with (undefined for calls without one). */
export type ArgsOfCall<M extends FakeMethod> = Parameters<MethodOf<M>>[0];

/** A call the widget made: the method's dotted path and its arguments. */
export interface RecordedCall {
  method: FakeMethod;
  args: unknown;
}

/** A fake client; `answer` sets how a method responds, `calls` lists what was asked. */
export interface FakeClient extends GatehouseClient {
  readonly calls: RecordedCall[];
  readonly events: { name: string; details: Record<string, unknown> | undefined }[];
  /** Sets the answer of a method, by dotted path, typed as the real client's method. */
  answer<M extends FakeMethod>(method: M, handler: MethodOf<M>): void;
  /** The arguments of the calls made to one method, oldest first. */
  callsTo<M extends FakeMethod>(method: M): ArgsOfCall<M>[];
  setSession(session: SessionState | null): void;
  setBootstrap(bootstrap: Partial<BootstrapConfig>): void;
  /** What the `rbac` checks grant: resource → action → granted (nothing by default). */
  setPermissions(permissions: Record<string, Record<string, boolean>>): void;
}

/** An `ack` result. */
export const ACK: Ack = { request_id: 'request-id-test-1', status_code: 200 };

/**
 * The client's view of `bootstrapData()`, as the real client derives it (docs/protocol.md §6).
 *
 * @example
 * const state = initialState({ config, bootstrap: TEST_BOOTSTRAP, hasSession: false });
 */
export const TEST_BOOTSTRAP: BootstrapConfig = toBootstrapConfig();

function toBootstrapConfig(): BootstrapConfig {
  const data = bootstrapData();
  return {
    displayWatermark: !data.disable_sdk_watermark,
    captchaSettings: data.captcha_settings,
    cnameDomain: data.cname_domain,
    emailDomains: data.email_domains,
    pkceRequiredForEmailMagicLinks: data.pkce_required_for_email_magic_links,
    pkceRequiredForPasswordResets: data.pkce_required_for_password_resets,
    pkceRequiredForOAuth: data.pkce_required_for_oauth,
    pkceRequiredForSso: data.pkce_required_for_sso,
    slugPattern: data.slug_pattern,
    createOrganizationEnabled: data.create_organization_enabled,
    passwordConfig: data.password_config
      ? {
          ludsComplexity: data.password_config.luds_complexity,
          ludsMinimumCount: data.password_config.luds_minimum_count,
        }
      : null,
    runDFPProtectedAuth: data.dfp_protected_auth_enabled,
    rbacPolicy: data.rbac_policy,
    raw: data,
  };
}

/**
 * Creates a fake client. Unanswered methods reject, so a test never passes by accident.
 *
 * @example
 * const client = createFakeClient();
 * client.answer('passwords.authenticate', async () => fullSession());
 * // … render the widget with it, sign in …
 * expect(client.callsTo('passwords.authenticate')).toHaveLength(1);
 */
export function createFakeClient(publicToken = PUBLIC_TOKEN): FakeClient {
  const calls: RecordedCall[] = [];
  const events: FakeClient['events'] = [];
  const handlers = new Map<FakeMethod, (args: unknown) => Promise<unknown>>();
  const listeners = new Set<() => void>();
  let session: SessionState | null = null;
  let bootstrap: BootstrapConfig = { ...TEST_BOOTSTRAP };
  let permissions: Record<string, Record<string, boolean>> = {};
  const granted = (resourceId: string, action: string) =>
    permissions[resourceId]?.[action] === true;

  const method =
    <A, R>(name: FakeMethod) =>
    (args?: A): Promise<R> => {
      calls.push({ method: name, args });
      const handler = handlers.get(name);
      if (!handler) return Promise.reject(new Error(`fake client: no answer set for ${name}`));
      return handler(args) as Promise<R>;
    };

  return {
    publicToken,
    endpoints: {
      sdkBackendURL: BASE_URL,
      apiURL: BASE_URL,
      clientsideServicesIframeURL: `${BASE_URL}/clientside-services/index.html`,
    },
    calls,
    events,
    answer(name, handler) {
      handlers.set(name, handler as (args: unknown) => Promise<unknown>);
    },
    callsTo: <M extends FakeMethod>(name: M) =>
      calls.filter((c) => c.method === name).map((c) => c.args as ArgsOfCall<M>),
    setSession(next) {
      session = next;
      for (const listener of listeners) listener();
    },
    setBootstrap(partial) {
      bootstrap = { ...bootstrap, ...partial };
    },
    setPermissions(next) {
      permissions = next;
    },
    bootstrap: () => Promise.resolve(bootstrap),
    getBootstrap: () => bootstrap,
    session: {
      getSnapshot: () => session,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      getTokens: () => null,
      getIntermediateSessionToken: () => null,
      authenticate: method('session.authenticate'),
      revoke: method('session.revoke'),
      exchange: method('session.exchange'),
    },
    magicLinks: {
      email: {
        loginOrSignup: method('magicLinks.email.loginOrSignup'),
        discovery: { send: method('magicLinks.email.discovery.send') },
      },
      authenticate: method('magicLinks.authenticate'),
      discovery: { authenticate: method('magicLinks.discovery.authenticate') },
    },
    discovery: {
      organizations: {
        list: method('discovery.organizations.list'),
        create: method('discovery.organizations.create'),
      },
      intermediateSessions: { exchange: method('discovery.intermediateSessions.exchange') },
    },
    organization: {
      getBySlug: method('organization.getBySlug'),
      members: { search: method('organization.members.search') },
    },
    passwords: {
      authenticate: method('passwords.authenticate'),
      resetByEmailStart: method('passwords.resetByEmailStart'),
      checkResetToken: method('passwords.checkResetToken'),
      resetByEmail: method('passwords.resetByEmail'),
      resetByExistingPassword: method('passwords.resetByExistingPassword'),
      resetBySession: method('passwords.resetBySession'),
      strengthCheck: method('passwords.strengthCheck'),
      discovery: {
        resetByEmailStart: method('passwords.discovery.resetByEmailStart'),
        resetByEmail: method('passwords.discovery.resetByEmail'),
      },
    },
    otps: {
      sms: { send: method('otps.sms.send'), authenticate: method('otps.sms.authenticate') },
    },
    totp: { create: method('totp.create'), authenticate: method('totp.authenticate') },
    recoveryCodes: {
      recover: method('recoveryCodes.recover'),
      rotate: method('recoveryCodes.rotate'),
      get: method('recoveryCodes.get'),
    },
    sso: { start: method('sso.start'), authenticate: method('sso.authenticate') },
    oauth: {
      google: {
        start: method('oauth.google.start'),
        discovery: { start: method('oauth.google.discovery.start') },
      },
      microsoft: {
        start: method('oauth.microsoft.start'),
        discovery: { start: method('oauth.microsoft.discovery.start') },
      },
      googleOneTap: {
        start: method('oauth.googleOneTap.start'),
        discovery: { start: method('oauth.googleOneTap.discovery.start') },
        cancel: () => undefined,
      },
      authenticate: method('oauth.authenticate'),
      discovery: { authenticate: method('oauth.discovery.authenticate') },
    },
    rbac: {
      isAuthorizedSync: (resourceId, action) => granted(resourceId, action),
      isAuthorized: (resourceId, action) => Promise.resolve(granted(resourceId, action)),
      allPermissions: () => Promise.resolve(permissions),
    },
    logEvent(name, details) {
      events.push({ name, details });
    },
    destroy() {
      listeners.clear();
    },
  };
}

/**
 * The error the real client rejects with when the server answers `error_type`; the status is the
 * one the protocol gives that type unless a test says otherwise.
 *
 * @example
 * client.answer('totp.authenticate', () => Promise.reject(apiError('unauthorized_credentials', 'Wrong code')));
 */
export function apiError(
  error_type: ErrorType,
  error_message: string,
  status_code: number = ERROR_STATUS[error_type],
): GatehouseAPIError {
  return new GatehouseAPIError({
    status_code,
    error_type,
    error_message,
    error_url: `${BASE_URL}/docs/errors#${error_type}`,
    request_id: 'request-id-test-err',
  });
}
