import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import {
  TEST_BOOTSTRAP,
  discovered,
  fullSession,
  mfaPending,
  organization,
} from '@gatehouse/testing';
import { reduce, type WidgetEvent } from './reducer.js';
import { initialState, type StartContext, type WidgetState } from './state.js';

const orgConfig = resolveConfig({ products: ['emailMagicLinks'], authFlowType: 'organization' });
const discoveryConfig = resolveConfig({ products: ['emailMagicLinks'], authFlowType: 'discovery' });

function start(overrides: Partial<StartContext> = {}): WidgetState {
  return initialState({
    config: discoveryConfig,
    bootstrap: TEST_BOOTSTRAP,
    hasSession: false,
    urlToken: null,
    ...overrides,
  });
}

function run(state: WidgetState, ...events: WidgetEvent[]): WidgetState {
  return events.reduce((s, e) => reduce(s, e, orgConfig), state);
}

describe('initial state', () => {
  it('starts on Main in discovery and on a spinner while the organization loads', () => {
    expect(start().screen).toBe('Main');
    expect(start({ config: orgConfig }).screen).toBe('Loading');
    expect(start({ config: orgConfig }).flow).toEqual({ type: 'organization', organization: null });
  });

  it('starts logged in with a session, and logging in with a URL token', () => {
    expect(start({ hasSession: true, urlToken: { type: 'discovery', token: 't' } }).screen).toBe(
      'LoggedIn',
    );
    expect(start({ urlToken: { type: 'discovery', token: 't' } }).screen).toBe('LoggingIn');
  });
});

describe('organization lookup', () => {
  it('shows Main for the organization that was found', () => {
    const org = organization();
    const next = run(start({ config: orgConfig }), {
      type: 'ORGANIZATION_FOUND',
      organization: org,
    });
    expect(next.screen).toBe('Main');
    expect(next.flow.organization).toBe(org);
  });

  it('shows the organization error when none was found', () => {
    const next = run(start({ config: orgConfig }), { type: 'ORGANIZATION_NOT_FOUND' });
    expect(next).toMatchObject({ screen: 'Error', errorType: 'organization' });
  });

  it('leaves a token being redeemed alone', () => {
    const loggingIn = start({ config: orgConfig, urlToken: { type: 'discovery', token: 't' } });
    expect(run(loggingIn, { type: 'ORGANIZATION_NOT_FOUND' }).screen).toBe('LoggingIn');
    expect(
      run(loggingIn, { type: 'ORGANIZATION_FOUND', organization: organization() }).screen,
    ).toBe('LoggingIn');
  });
});

describe('a late organization lookup', () => {
  it('does not override the discovery flow a URL token started', () => {
    const discovering = run(
      start({ config: orgConfig, urlToken: { type: 'discovery', token: 't' } }),
      {
        type: 'DISCOVERY_AUTHENTICATED',
        email: 'ada@acme.test',
        discoveredOrganizations: [],
        intermediateSessionToken: 'ist',
      },
    );
    const next = run(discovering, { type: 'ORGANIZATION_FOUND', organization: organization() });
    expect(next).toBe(discovering);
  });
});

describe('e-mail magic link', () => {
  it('marks the form busy, then confirms with the address', () => {
    const busy = run(start(), { type: 'EMAIL_SUBMITTED' });
    expect(busy.form).toEqual({ isSubmitting: true, error: null });
    const sent = run(busy, { type: 'EMAIL_SENT', email: 'ada@acme.test' });
    expect(sent.screen).toBe('EmailConfirmation');
    expect(sent.magicLink.email).toBe('ada@acme.test');
    expect(sent.form.isSubmitting).toBe(false);
  });

  it('keeps Main with the message on failure, and Try again returns to Main', () => {
    const failed = run(
      start(),
      { type: 'EMAIL_SUBMITTED' },
      { type: 'EMAIL_FAILED', message: 'No' },
    );
    expect(failed).toMatchObject({ screen: 'Main', form: { isSubmitting: false, error: 'No' } });
    const again = run(failed, { type: 'EMAIL_SENT', email: 'a@b.co' }, { type: 'RETURN_TO_MAIN' });
    expect(again).toMatchObject({ screen: 'Main', form: { isSubmitting: false, error: null } });
  });
});

describe('after primary authentication', () => {
  it('goes to LoggedIn with a member session', () => {
    const next = run(start(), { type: 'PRIMARY_AUTH_SUCCEEDED', result: fullSession(), now: 0 });
    expect(next.screen).toBe('LoggedIn');
    expect(next.mfa.primaryInfo).toBeNull();
  });

  it('goes to the MFA screen routing names, keeping the MFA facts', () => {
    const next = run(start(), {
      type: 'PRIMARY_AUTH_SUCCEEDED',
      result: mfaPending({ totp_registration_id: 'member-totp-test-1' }),
      now: 0,
    });
    expect(next.screen).toBe('TOTPEntry');
    expect(next.mfa.primaryInfo?.enrolledMfaMethods).toEqual(['totp']);
  });

  it('shows the error type a failure names', () => {
    const next = run(start(), { type: 'FAILED', errorType: 'email_magic_link' });
    expect(next).toMatchObject({ screen: 'Error', errorType: 'email_magic_link' });
  });
});

describe('discovery', () => {
  const orgs = [discovered('active_member'), discovered('invited_member')];
  const authenticated = run(start(), {
    type: 'DISCOVERY_AUTHENTICATED',
    email: 'ada@acme.test',
    discoveredOrganizations: orgs,
    intermediateSessionToken: 'ist',
  });

  it('shows the organizations of the e-mail', () => {
    expect(authenticated.screen).toBe('Discovery');
    expect(authenticated.discovery).toEqual({
      email: 'ada@acme.test',
      discoveredOrganizations: orgs,
      intermediateSessionToken: 'ist',
    });
  });

  it('shows the organization login with the e-mail filled in when primary auth is required', () => {
    const choice = discovered(
      'active_member',
      { organization_name: 'Umbrella' },
      {
        allowed_auth_methods: ['password', 'magic_link'],
      },
    );
    const next = run(authenticated, { type: 'DISCOVERY_LOGIN_REQUIRED', discovered: choice });
    expect(next.screen).toBe('Main');
    expect(next.flow).toEqual({ type: 'organization', organization: choice.organization });
    expect(next.password.email).toBe('ada@acme.test');
  });

  it('logs in through a spinner, and returns to the list when entering fails', () => {
    const entering = run(authenticated, { type: 'AUTH_STARTED' });
    expect(entering.screen).toBe('LoggingIn');
    expect(run(entering, { type: 'DISCOVERY_EXCHANGE_FAILED' }).screen).toBe('Discovery');
    expect(run(entering, { type: 'FAILED', errorType: 'default' }).screen).toBe('Error');
  });

  it('shows a spinner while the page navigates away', () => {
    const leaving = run(authenticated, { type: 'REDIRECTING' });
    expect(leaving.screen).toBe('Loading');
    expect(run(leaving, { type: 'REDIRECT_FAILED', returnTo: 'Discovery' }).screen).toBe(
      'Discovery',
    );
  });
});

describe('bootstrap', () => {
  it('stores the bootstrap answer', () => {
    const next = run(start(), {
      type: 'BOOTSTRAP_LOADED',
      bootstrap: { ...TEST_BOOTSTRAP, emailDomains: ['x.test'] },
    });
    expect(next.bootstrap.emailDomains).toEqual(['x.test']);
  });
});

describe('password flows', () => {
  const resetConfig = resolveConfig({ products: ['passwords'], authFlowType: 'passwordReset' });

  it('starts the PasswordReset flow on the reset form, even with a session', () => {
    const state = start({
      config: resetConfig,
      hasSession: true,
      resetToken: { type: 'multi_tenant_passwords', token: 'r' },
      storedResetEmail: 'ada@acme.test',
    });
    expect(state.screen).toBe('PasswordResetForm');
    expect(state.flow.type).toBe('password_reset');
    expect(state.password).toEqual({
      email: '',
      resetEmail: 'ada@acme.test',
      resetToken: { type: 'multi_tenant_passwords', token: 'r' },
      resetLinkProblem: null,
      requiredReset: null,
    });
  });

  it('starts the PasswordReset flow without a form when there is neither a link nor a session', () => {
    expect(start({ config: resetConfig }).password.resetLinkProblem).toBe('missing');
    expect(start({ config: resetConfig, hasSession: true }).password.resetLinkProblem).toBe(null);
  });

  it('moves between the password screens carrying the e-mail', () => {
    const login = run(start(), { type: 'PASSWORD_LOGIN_REQUESTED', email: 'ada@acme.test' });
    expect(login.screen).toBe('PasswordAuthenticate');
    expect(login.password.email).toBe('ada@acme.test');
    const help = run(login, { type: 'FORGOT_PASSWORD_REQUESTED', email: 'grace@acme.test' });
    expect(help).toMatchObject({
      screen: 'PasswordForgotForm',
      password: { email: 'grace@acme.test' },
    });
    const sent = run(help, { type: 'PASSWORD_RESET_EMAIL_SENT', email: 'grace@acme.test' });
    expect(sent.screen).toBe('PasswordSetNewConfirmation');
    expect(sent.password.resetEmail).toBe('grace@acme.test');
    const link = run(help, { type: 'PASSWORD_RESET_LINK_SENT', email: 'grace@acme.test' });
    expect(link.screen).toBe('PasswordResetVerifyConfirmation');
    expect(link.password.resetEmail).toBeNull();
  });

  it('tracks a form submission and its failure', () => {
    const busy = run(start(), { type: 'PASSWORD_SUBMITTED', email: 'ada@acme.test' });
    expect(busy.form).toEqual({ isSubmitting: true, error: null });
    expect(run(busy, { type: 'FORM_FAILED', message: 'No' }).form).toEqual({
      isSubmitting: false,
      error: 'No',
    });
    expect(run(busy, { type: 'FORM_SETTLED' }).form).toEqual({ isSubmitting: false, error: null });
  });

  it('returns to the reset form after a reset login link, showing its member', () => {
    const reset = start({
      config: resetConfig,
      resetToken: { type: 'multi_tenant_magic_links', token: 'm' },
    });
    const spent = run(reset, { type: 'RESET_TOKEN_SPENT' });
    expect(spent.password.resetToken).toBeNull();
    const signedIn = run(spent, {
      type: 'PRIMARY_AUTH_SUCCEEDED',
      result: fullSession(),
      now: 0,
      fromResetToken: true,
    });
    expect(signedIn.screen).toBe('PasswordResetForm');
    expect(signedIn.password.resetEmail).toBe('ada@acme.test');
    const failed = run(reset, { type: 'RESET_TOKEN_SPENT', message: 'Unverified' });
    expect(failed.form.error).toBe('Unverified');
  });
});
