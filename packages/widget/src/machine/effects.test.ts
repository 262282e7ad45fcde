import { describe, expect, it } from 'vitest';
import { GatehouseCaptchaError } from '@gatehouse/client';
import { resolveConfig, type WidgetConfig } from '../config.js';
import {
  ACK,
  apiError,
  createFakeClient,
  type FakeClient,
  discovered,
  discoveryResult,
  fullSession,
  mfaPending,
  organization,
} from '@gatehouse/testing';
import type { WidgetCallbacks, WidgetEventReport } from './callbacks.js';
import type { WidgetError } from './errors.js';
import {
  chooseDiscoveredOrganization,
  createOrganization,
  sendEmailMagicLink,
  start,
  startOAuth,
  startSso,
  type EffectContext,
} from './effects.js';
import { initialState } from './state.js';
import { createMachineStore } from './store.js';
import { readUrlToken, type UrlToken } from './urls.js';
import { en } from '../messages/en.js';
import { createFormat } from '../messages/format.js';

interface Harness {
  ctx: EffectContext;
  client: FakeClient;
  events: WidgetEventReport[];
  errors: WidgetError[];
  successes: unknown[];
  toasts: string[];
  url: { current: string };
}

function harness(config: WidgetConfig, pageUrl = 'http://localhost:3000/acme/login'): Harness {
  const client = createFakeClient();
  const resolved = resolveConfig(config);
  const url = { current: pageUrl };
  const parsed = new URL(pageUrl);
  const store = createMachineStore(
    initialState({
      config: resolved,
      bootstrap: client.getBootstrap(),
      hasSession: client.session.getSnapshot() !== null,
      urlToken: readUrlToken(parsed.search),
    }),
    resolved,
  );
  const h: Omit<Harness, 'ctx'> = {
    client,
    events: [],
    errors: [],
    successes: [],
    toasts: [],
    url,
  };
  const callbacks: WidgetCallbacks = {
    onEvent: (e) => h.events.push(e),
    onError: (e) => h.errors.push(e),
    onSuccess: (d) => h.successes.push(d),
  };
  const ctx: EffectContext = {
    client,
    config: resolved,
    callbacks,
    dispatch: store.dispatch,
    format: createFormat(en),
    getState: store.getState,
    env: {
      location: parsed,
      replaceUrl: (next) => {
        url.current = new URL(next, parsed).href;
      },
      now: () => 1_000,
      toastError: (message) => h.toasts.push(message),
      toastSuccess: (message) => h.toasts.push(message),
      copyText: () => Promise.resolve(),
      downloadText: () => undefined,
      storage: null,
    },
  };
  return { ...h, ctx };
}

const discovery: WidgetConfig = { products: ['emailMagicLinks'], authFlowType: 'discovery' };
const org: WidgetConfig = {
  products: ['emailMagicLinks'],
  authFlowType: 'organization',
  emailMagicLinksOptions: {
    loginRedirectURL: 'http://localhost:3000/in',
    signupRedirectURL: 'http://localhost:3000/up',
    loginTemplateId: 'login-t',
    signupTemplateId: 'signup-t',
  },
};

async function startWith(h: Harness, token: UrlToken | null = null) {
  await start(h.ctx, token ?? readUrlToken(new URL(h.url.current).search));
}

describe('on load: organization flow', () => {
  it('finds the organization by the slug in the page URL', async () => {
    const h = harness(org);
    h.client.answer('organization.getBySlug', async () => ({
      ...ACK,
      organization: organization(),
    }));
    await startWith(h);
    expect(h.client.callsTo('organization.getBySlug')).toEqual([{ organization_slug: 'acme' }]);
    expect(h.ctx.getState().screen).toBe('Main');
    expect(h.ctx.getState().flow.organization?.organization_name).toBe('Acme');
  });

  it('shows the organization error when the lookup finds nothing', async () => {
    const h = harness(org);
    h.client.answer('organization.getBySlug', async () => ({ ...ACK, organization: null }));
    await startWith(h);
    expect(h.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'organization' });
  });

  it('shows the organization error without a pattern or without a match, asking nothing', async () => {
    const none = harness(org);
    none.client.setBootstrap({ slugPattern: null });
    await startWith(none);
    expect(none.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'organization' });

    const elsewhere = harness(org, 'http://localhost:3000/somewhere');
    await startWith(elsewhere);
    expect(elsewhere.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'organization' });
    expect(none.client.callsTo('organization.getBySlug')).toEqual([]);
    expect(elsewhere.client.callsTo('organization.getBySlug')).toEqual([]);
  });

  it('shows the organization error when the lookup fails, and tells the host', async () => {
    const h = harness(org);
    h.client.answer('organization.getBySlug', () =>
      Promise.reject(apiError('internal_server_error', 'Boom', 500)),
    );
    await startWith(h);
    expect(h.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'organization' });
    expect(h.errors).toEqual([{ message: 'Boom', error_type: 'internal_server_error' }]);
  });
});

describe('on load: URL tokens', () => {
  it('authenticates a magic link, clears the query and logs in', async () => {
    const h = harness(
      discovery,
      'http://localhost:3000/login?stytch_token_type=multi_tenant_magic_links&token=tok#x',
    );
    const result = { ...fullSession(), method_id: 'member-email-test-1' };
    h.client.answer('magicLinks.authenticate', async () => result);
    await startWith(h);
    expect(h.client.callsTo('magicLinks.authenticate')).toEqual([
      { magic_links_token: 'tok', session_duration_minutes: 60, locale: 'en' },
    ]);
    expect(h.url.current).toBe('http://localhost:3000/login#x');
    expect(h.ctx.getState().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
    expect(h.events).toEqual([{ type: 'MAGIC_LINK_AUTHENTICATE', data: result }]);
  });

  it('shows the e-mail magic link error when the link fails, keeping the query', async () => {
    const page = 'http://localhost:3000/login?stytch_token_type=multi_tenant_magic_links&token=tok';
    const h = harness(discovery, page);
    h.client.answer('magicLinks.authenticate', () =>
      Promise.reject(apiError('magic_link_not_found', 'Not found', 404)),
    );
    await startWith(h);
    expect(h.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'email_magic_link' });
    expect(h.url.current).toBe(page);
    expect(h.successes).toEqual([]);
    expect(h.errors).toEqual([{ message: 'Not found', error_type: 'magic_link_not_found' }]);
  });

  it('does not report success while MFA is still pending', async () => {
    const h = harness(
      discovery,
      'http://localhost:3000/?stytch_token_type=multi_tenant_magic_links&token=t',
    );
    h.client.answer('magicLinks.authenticate', async () => ({ ...mfaPending(), method_id: 'm' }));
    await startWith(h);
    expect(h.ctx.getState().screen).toBe('MFAEnrollmentSelection');
    expect(h.successes).toEqual([]);
  });

  it('authenticates a discovery link and lists the organizations', async () => {
    const h = harness(
      discovery,
      'http://localhost:3000/discover?stytch_token_type=discovery&token=d',
    );
    const result = discoveryResult([discovered('active_member'), discovered('invited_member')]);
    h.client.answer('magicLinks.discovery.authenticate', async () => result);
    await startWith(h);
    expect(h.client.callsTo('magicLinks.discovery.authenticate')).toEqual([
      { discovery_magic_links_token: 'd' },
    ]);
    expect(h.url.current).toBe('http://localhost:3000/discover');
    expect(h.ctx.getState().screen).toBe('Discovery');
    expect(h.ctx.getState().discovery.email).toBe('ada@acme.test');
    expect(h.events.map((e) => e.type)).toEqual(['B2B_MAGIC_LINK_EMAIL_DISCOVERY_AUTHENTICATE']);
  });

  it('shows the default error when a discovery link fails', async () => {
    const h = harness(discovery, 'http://localhost:3000/?stytch_token_type=discovery&token=d');
    h.client.answer('magicLinks.discovery.authenticate', () =>
      Promise.reject(apiError('magic_link_not_found', 'Not found', 404)),
    );
    await startWith(h);
    expect(h.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'default' });
  });

  it('enters the single organization directly when configured', async () => {
    const h = harness(
      { ...discovery, directLoginForSingleMembership: { status: true } },
      'http://localhost:3000/?stytch_token_type=discovery&token=d',
    );
    const only = discovered('active_member');
    h.client.answer('magicLinks.discovery.authenticate', async () => discoveryResult([only]));
    h.client.answer('discovery.intermediateSessions.exchange', async () => fullSession());
    await startWith(h);
    expect(h.client.callsTo('discovery.intermediateSessions.exchange')).toEqual([
      { organization_id: only.organization.organization_id, session_duration_minutes: 60 },
    ]);
    expect(h.ctx.getState().screen).toBe('LoggedIn');
  });

  it('authenticates OAuth and SSO tokens as primary logins', async () => {
    for (const [type, method, field, event] of [
      ['oauth', 'oauth.authenticate', 'oauth_token', 'B2B_OAUTH_AUTHENTICATE'],
      ['sso', 'sso.authenticate', 'sso_token', 'B2B_SSO_AUTHENTICATE'],
    ] as const) {
      const h = harness(discovery, `http://localhost:3000/?stytch_token_type=${type}&token=t`);
      h.client.answer(method, async () => fullSession());
      await startWith(h);
      expect(h.client.callsTo(method)).toEqual([{ [field]: 't', session_duration_minutes: 60 }]);
      expect(h.ctx.getState().screen).toBe('LoggedIn');
      expect(h.events.map((e) => e.type)).toEqual([event]);
      expect(h.url.current).toBe('http://localhost:3000/');
    }
  });

  it('lists organizations after an OAuth discovery token, and fails with the default error', async () => {
    const page = 'http://localhost:3000/?stytch_token_type=discovery_oauth&token=t';
    const h = harness(discovery, page);
    h.client.answer('oauth.discovery.authenticate', async () =>
      discoveryResult([discovered('active_member')]),
    );
    await startWith(h);
    expect(h.client.callsTo('oauth.discovery.authenticate')).toEqual([
      { discovery_oauth_token: 't' },
    ]);
    expect(h.ctx.getState().screen).toBe('Discovery');

    const failing = harness(discovery, 'http://localhost:3000/?stytch_token_type=sso&token=t');
    failing.client.answer('sso.authenticate', () =>
      Promise.reject(apiError('sso_token_not_found', 'Gone', 404)),
    );
    await startWith(failing);
    expect(failing.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'default' });
  });

  it('does nothing on load but fetch bootstrap when a session exists', async () => {
    const h = harness(org, 'http://localhost:3000/acme/login?stytch_token_type=discovery&token=d');
    const session = fullSession();
    h.client.setSession({
      session: session.member_session,
      member: session.member,
      organization: session.organization,
    });
    const token: UrlToken = { type: 'discovery', token: 'd' };
    const store = createMachineStore(
      initialState({
        config: h.ctx.config,
        bootstrap: h.client.getBootstrap(),
        hasSession: true,
        urlToken: token,
      }),
      h.ctx.config,
    );
    await start({ ...h.ctx, getState: store.getState, dispatch: store.dispatch }, token);
    expect(store.getState().screen).toBe('LoggedIn');
    expect(h.client.calls).toEqual([]);
  });
});

describe('sending the e-mail link', () => {
  async function orgHarness() {
    const h = harness(org);
    h.client.answer('organization.getBySlug', async () => ({
      ...ACK,
      organization: organization(),
    }));
    await startWith(h);
    return h;
  }

  it('asks for a login or signup link in the organization, with the configured options', async () => {
    const h = await orgHarness();
    h.client.answer('magicLinks.email.loginOrSignup', async () => ACK);
    await sendEmailMagicLink(h.ctx, 'ada@acme.test');
    expect(h.client.callsTo('magicLinks.email.loginOrSignup')).toEqual([
      {
        email_address: 'ada@acme.test',
        organization_id: 'organization-test-acme',
        login_redirect_url: 'http://localhost:3000/in',
        signup_redirect_url: 'http://localhost:3000/up',
        login_template_id: 'login-t',
        signup_template_id: 'signup-t',
        locale: 'en',
      },
    ]);
    expect(h.ctx.getState()).toMatchObject({
      screen: 'EmailConfirmation',
      magicLink: { email: 'ada@acme.test' },
    });
    expect(h.events).toEqual([{ type: 'MAGIC_LINK_LOGIN_OR_SIGNUP', data: ACK }]);
  });

  it('sends a discovery link in the discovery flow', async () => {
    const h = harness({
      ...discovery,
      emailMagicLinksOptions: {
        discoveryRedirectURL: 'http://localhost:3000/d',
        loginTemplateId: 't',
      },
    });
    h.client.answer('magicLinks.email.discovery.send', async () => ACK);
    await sendEmailMagicLink(h.ctx, 'ada@acme.test');
    expect(h.client.callsTo('magicLinks.email.discovery.send')).toEqual([
      {
        email_address: 'ada@acme.test',
        discovery_redirect_url: 'http://localhost:3000/d',
        login_template_id: 't',
        locale: 'en',
      },
    ]);
    expect(h.ctx.getState().screen).toBe('EmailConfirmation');
  });

  it('words the JIT refusals as the access message and others as the server says', async () => {
    const h = await orgHarness();
    h.client.answer('magicLinks.email.loginOrSignup', () =>
      Promise.reject(apiError('invalid_email_for_jit_provisioning', 'Domain not allowed', 403)),
    );
    await sendEmailMagicLink(h.ctx, 'eve@evil.test');
    expect(h.ctx.getState().form.error).toBe(
      'eve@evil.test does not have access to Acme. If you think this is a mistake, contact your admin.',
    );
    h.client.answer('magicLinks.email.loginOrSignup', () =>
      Promise.reject(apiError('too_many_requests', 'Slow down', 429)),
    );
    await sendEmailMagicLink(h.ctx, 'eve@evil.test');
    expect(h.ctx.getState()).toMatchObject({ screen: 'Main', form: { error: 'Slow down' } });
  });

  it('words a failed captcha for the person, under the form and as a toast', async () => {
    const failed = "We couldn't complete the security check. Please try again.";
    const h = harness(discovery);
    h.client.answer('magicLinks.email.discovery.send', () =>
      Promise.reject(
        new GatehouseCaptchaError('The script at https://captcha.test/api.js did not load.'),
      ),
    );
    await sendEmailMagicLink(h.ctx, 'ada@acme.test');
    expect(h.ctx.getState()).toMatchObject({ screen: 'Main', form: { error: failed } });
    expect(h.toasts).toEqual([failed]);
    expect(h.errors).toEqual([{ message: failed }]);

    h.client.answer('magicLinks.email.discovery.send', () =>
      Promise.reject(apiError('invalid_captcha', 'The captcha provider did not accept it.')),
    );
    await sendEmailMagicLink(h.ctx, 'ada@acme.test');
    expect(h.errors.at(-1)).toEqual({ message: failed, error_type: 'invalid_captcha' });

    h.client.answer('magicLinks.email.discovery.send', () =>
      Promise.reject(apiError('captcha_unavailable', 'The provider could not be reached.')),
    );
    await sendEmailMagicLink(h.ctx, 'ada@acme.test');
    expect(h.toasts.at(-1)).toBe(
      'The security check is unavailable right now. Please try again in a moment.',
    );
    expect(h.ctx.getState().form.error).toBe(h.toasts.at(-1));
  });

  it('ignores a second submit while the first is in flight', async () => {
    const h = harness(discovery);
    let release: () => void = () => undefined;
    h.client.answer(
      'magicLinks.email.discovery.send',
      () => new Promise((resolve) => (release = () => resolve(ACK))),
    );
    const first = sendEmailMagicLink(h.ctx, 'ada@acme.test');
    await sendEmailMagicLink(h.ctx, 'ada@acme.test');
    release();
    await first;
    expect(h.client.callsTo('magicLinks.email.discovery.send')).toHaveLength(1);
  });
});

describe('choosing and creating organizations', () => {
  it('exchanges the intermediate session and logs in', async () => {
    const h = harness(discovery);
    const result = fullSession();
    h.client.answer('discovery.intermediateSessions.exchange', async () => result);
    await chooseDiscoveredOrganization(h.ctx, discovered('active_member'));
    expect(h.ctx.getState().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
    expect(h.events).toEqual([
      { type: 'B2B_DISCOVERY_INTERMEDIATE_SESSION_EXCHANGE', data: result },
    ]);
  });

  it('returns to the list with a toast when the exchange fails', async () => {
    const h = harness(discovery);
    h.client.answer('discovery.intermediateSessions.exchange', () =>
      Promise.reject(apiError('member_not_found', 'No member', 404)),
    );
    await chooseDiscoveredOrganization(h.ctx, discovered('active_member'));
    expect(h.ctx.getState().screen).toBe('Discovery');
    expect(h.toasts).toEqual(['No member']);
  });

  it('starts SSO when the organization requires its default connection', async () => {
    const h = harness(discovery);
    h.client.answer('sso.start', () => new Promise<void>(() => undefined));
    void chooseDiscoveredOrganization(
      h.ctx,
      discovered(
        'active_member',
        { sso_default_connection_id: 'saml-connection-test-1' },
        { allowed_auth_methods: ['sso'] },
      ),
    );
    await Promise.resolve();
    expect(h.client.calls).toEqual([
      { method: 'sso.start', args: { connection_id: 'saml-connection-test-1' } },
    ]);
    expect(h.ctx.getState().screen).toBe('Loading');
  });

  it('creates an organization and logs in, or shows the error', async () => {
    const h = harness(discovery);
    h.client.answer('discovery.organizations.create', async () => fullSession());
    await createOrganization(h.ctx);
    expect(h.client.callsTo('discovery.organizations.create')).toEqual([
      { session_duration_minutes: 60 },
    ]);
    expect(h.ctx.getState().screen).toBe('LoggedIn');
    expect(h.events.map((e) => e.type)).toEqual(['B2B_DISCOVERY_ORGANIZATIONS_CREATE']);

    const failing = harness({ ...discovery, sessionOptions: { sessionDurationMinutes: 30 } });
    failing.client.answer('discovery.organizations.create', () =>
      Promise.reject(apiError('organization_creation_not_allowed', 'Not allowed', 403)),
    );
    await createOrganization(failing.ctx);
    expect(failing.client.callsTo('discovery.organizations.create')).toEqual([
      { session_duration_minutes: 30 },
    ]);
    expect(failing.ctx.getState()).toMatchObject({ screen: 'Error', errorType: 'default' });
  });
});

describe('OAuth and SSO buttons', () => {
  const providers = {
    providers: [
      'google' as const,
      {
        type: 'microsoft' as const,
        customScopes: ['User.Read'],
        providerParams: { prompt: 'login' },
      },
    ],
    loginRedirectURL: 'http://localhost:3000/in',
    signupRedirectURL: 'http://localhost:3000/up',
    discoveryRedirectURL: 'http://localhost:3000/discover',
  };

  it('starts OAuth discovery without an organization', async () => {
    const h = harness({ products: ['oauth'], authFlowType: 'discovery', oauthOptions: providers });
    h.client.answer('oauth.microsoft.discovery.start', async () => undefined);
    await startOAuth(h.ctx, h.ctx.config.oauth.providers[1]!);
    expect(h.client.callsTo('oauth.microsoft.discovery.start')).toEqual([
      {
        discovery_redirect_url: 'http://localhost:3000/discover',
        custom_scopes: ['User.Read'],
        provider_params: { prompt: 'login' },
      },
    ]);
    expect(h.ctx.getState().screen).toBe('Loading');
  });

  it('starts OAuth and SSO into the organization', async () => {
    const o = harness({
      products: ['oauth', 'sso'],
      authFlowType: 'organization',
      oauthOptions: providers,
      ssoOptions: { signupRedirectURL: 'http://localhost:3000/sso-up' },
    });
    o.client.answer('organization.getBySlug', async () => ({
      ...ACK,
      organization: organization(),
    }));
    o.client.answer('oauth.google.start', async () => undefined);
    o.client.answer('sso.start', async () => undefined);
    await startWith(o);
    await startOAuth(o.ctx, o.ctx.config.oauth.providers[0]!);
    await startSso(o.ctx, 'saml-connection-test-1');
    expect(o.client.callsTo('oauth.google.start')).toEqual([
      {
        organization_id: 'organization-test-acme',
        login_redirect_url: 'http://localhost:3000/in',
        signup_redirect_url: 'http://localhost:3000/up',
        custom_scopes: undefined,
        provider_params: undefined,
      },
    ]);
    expect(o.client.callsTo('sso.start')).toEqual([
      {
        connection_id: 'saml-connection-test-1',
        login_redirect_url: undefined,
        signup_redirect_url: 'http://localhost:3000/sso-up',
      },
    ]);
  });

  it('stays on Main and says why when the navigation cannot start', async () => {
    const h = harness({ products: ['oauth'], authFlowType: 'discovery', oauthOptions: providers });
    h.client.answer('oauth.google.discovery.start', () =>
      Promise.reject(new Error('pkce unavailable')),
    );
    await startOAuth(h.ctx, h.ctx.config.oauth.providers[0]!);
    expect(h.ctx.getState().screen).toBe('Main');
    expect(h.toasts).toEqual(['pkce unavailable']);
    expect(h.errors).toEqual([{ message: 'pkce unavailable' }]);
  });
});
