/** An in-memory GatehouseClient for widget tests: records every call, answers as each test says. */
import type { Ack } from '@gatehouse/protocol';
import type { BootstrapConfig, GatehouseClient, SessionState } from '../client.js';

/** The bootstrap a fresh project answers with. */
export const TEST_BOOTSTRAP: BootstrapConfig = {
  displayWatermark: false,
  captchaSettings: { enabled: false },
  cnameDomain: null,
  emailDomains: ['mail.gatehouse.test'],
  pkceRequiredForEmailMagicLinks: false,
  pkceRequiredForPasswordResets: false,
  pkceRequiredForOAuth: false,
  pkceRequiredForSso: false,
  slugPattern: 'http://localhost:3000/{{slug}}/login',
  createOrganizationEnabled: true,
  passwordConfig: null,
  runDFPProtectedAuth: false,
  rbacPolicy: null,
  raw: null,
};

/** A call the widget made: the method's dotted path and its arguments. */
export interface RecordedCall {
  method: string;
  args: unknown;
}

type Handler = (args: never) => Promise<unknown>;

/** A fake client; `answer` sets how a method responds, `calls` lists what was asked. */
export interface FakeClient extends GatehouseClient {
  readonly calls: RecordedCall[];
  readonly events: { name: string; details: Record<string, unknown> | undefined }[];
  /** Sets the answer of a method, by dotted path (`'magicLinks.email.loginOrSignup'`). */
  answer(method: string, handler: (args: never) => Promise<unknown>): void;
  /** Calls made to one method. */
  callsTo(method: string): unknown[];
  setSession(session: SessionState | null): void;
  setBootstrap(bootstrap: Partial<BootstrapConfig>): void;
}

export const ACK: Ack = { request_id: 'request-id-test-1', status_code: 200 };

/** Creates a fake client. Unanswered methods reject, so a test never passes by accident. */
export function createFakeClient(publicToken = 'public-token-test-widget'): FakeClient {
  const calls: RecordedCall[] = [];
  const events: FakeClient['events'] = [];
  const handlers = new Map<string, Handler>();
  const listeners = new Set<() => void>();
  let session: SessionState | null = null;
  let bootstrap: BootstrapConfig = { ...TEST_BOOTSTRAP };

  const method =
    <A, R>(name: string) =>
    (args?: A): Promise<R> => {
      calls.push({ method: name, args });
      const handler = handlers.get(name);
      if (!handler) return Promise.reject(new Error(`fake client: no answer set for ${name}`));
      return handler(args as never) as Promise<R>;
    };

  return {
    publicToken,
    endpoints: {
      sdkBackendURL: 'http://127.0.0.1:4000',
      apiURL: 'http://127.0.0.1:4000',
      clientsideServicesIframeURL: 'http://127.0.0.1:4000/clientside-services/index.html',
    },
    calls,
    events,
    answer(name, handler) {
      handlers.set(name, handler);
    },
    callsTo: (name) => calls.filter((c) => c.method === name).map((c) => c.args),
    setSession(next) {
      session = next;
      for (const listener of listeners) listener();
    },
    setBootstrap(partial) {
      bootstrap = { ...bootstrap, ...partial };
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
      resetByEmail: method('passwords.resetByEmail'),
      resetByExistingPassword: method('passwords.resetByExistingPassword'),
      resetBySession: method('passwords.resetBySession'),
      strengthCheck: method('passwords.strengthCheck'),
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
      authenticate: method('oauth.authenticate'),
      discovery: { authenticate: method('oauth.discovery.authenticate') },
    },
    rbac: {
      isAuthorizedSync: () => false,
      isAuthorized: () => Promise.resolve(false),
      allPermissions: () => Promise.resolve({}),
    },
    logEvent(name, details) {
      events.push({ name, details });
    },
    destroy() {
      listeners.clear();
    },
  };
}

/** An error shaped like the client's API error. */
export function apiError(error_type: string, error_message: string, status_code = 400) {
  return Object.assign(new Error(error_message), {
    name: 'GatehouseAPIError',
    status_code,
    error_type,
    error_message,
    error_url: `http://localhost/docs/errors#${error_type}`,
    request_id: 'request-id-test-2',
  });
}
