import { describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { effectHarness, type EffectHarnessOptions } from '../test/effect-harness.js';
import {
  ACK,
  PUBLIC_TOKEN,
  apiError,
  fullSession,
  member,
  mfaPending,
  organization,
  resetStarted,
  strengthVerdict,
} from '@gatehouse/testing';
import { start } from './effects.js';
import {
  authenticatePassword,
  checkPasswordStrength,
  forgotPassword,
  resendPasswordEmail,
  resetPassword,
} from './passwords.js';
import { resetEmailKey } from './reset-email.js';

const RESET_URL = 'http://localhost:3000/reset';
const config: WidgetConfig = {
  products: ['emailMagicLinks', 'passwords'],
  authFlowType: 'organization',
  emailMagicLinksOptions: {
    loginRedirectURL: 'http://localhost:3000/in',
    loginTemplateId: 'login-t',
    signupTemplateId: 'signup-t',
  },
  passwordOptions: {
    resetPasswordRedirectURL: RESET_URL,
    resetPasswordExpirationMinutes: 45,
    resetPasswordTemplateId: 'reset-t',
  },
};
const resetConfig: WidgetConfig = { ...config, authFlowType: 'passwordReset' };
const KEY = resetEmailKey(PUBLIC_TOKEN);

/** A harness already in the organization flow for Acme, on Main. */
function inAcme(options: EffectHarnessOptions = {}, org = organization()) {
  return effectHarness(config, {
    ...options,
    state: { screen: 'Main', flow: { type: 'organization', organization: org }, ...options.state },
  });
}

function searchAnswers(found: ReturnType<typeof member> | null) {
  return {
    prepare: (c: ReturnType<typeof effectHarness>['client']) =>
      c.answer('organization.members.search', async () => ({ ...ACK, member: found })),
  };
}

describe('password login', () => {
  it('authenticates in the organization with the 30-minute fallback and logs in', async () => {
    const h = inAcme();
    const result = fullSession();
    h.client.answer('passwords.authenticate', async () => result);
    await authenticatePassword(h.ctx, 'ada@acme.test', 'correct horse');
    expect(h.client.callsTo('passwords.authenticate')).toEqual([
      {
        organization_id: 'organization-test-acme',
        email_address: 'ada@acme.test',
        password: 'correct horse',
        session_duration_minutes: 30,
        locale: 'en',
      },
    ]);
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
  });

  it('uses the configured session duration when there is one', async () => {
    const h = effectHarness(
      { ...config, sessionOptions: { sessionDurationMinutes: 90 } },
      { state: { flow: { type: 'organization', organization: organization() } } },
    );
    h.client.answer('passwords.authenticate', async () => fullSession());
    await authenticatePassword(h.ctx, 'ada@acme.test', 'pw');
    expect(h.client.callsTo('passwords.authenticate')).toMatchObject([
      { session_duration_minutes: 90 },
    ]);
  });

  it('shows the spec message for wrong credentials and the server message otherwise', async () => {
    const h = inAcme();
    h.client.answer('passwords.authenticate', () =>
      Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
    );
    await authenticatePassword(h.ctx, 'ada@acme.test', 'wrong');
    expect(h.state().form).toEqual({
      isSubmitting: false,
      error: 'Invalid email or password. Please try again or use the link below to get help.',
    });
    expect(h.state().password.email).toBe('ada@acme.test');
    expect(h.errors).toEqual([{ message: 'Unauthorized', error_type: 'unauthorized_credentials' }]);

    h.client.answer('passwords.authenticate', () =>
      Promise.reject(apiError('too_many_requests', 'Slow down', 429)),
    );
    await authenticatePassword(h.ctx, 'ada@acme.test', 'wrong');
    expect(h.state().form.error).toBe('Slow down');
  });

  it('ignores a second submit while the first is under way', async () => {
    const h = inAcme();
    h.client.answer('passwords.authenticate', () => new Promise(() => undefined));
    void authenticatePassword(h.ctx, 'ada@acme.test', 'pw');
    await authenticatePassword(h.ctx, 'ada@acme.test', 'pw');
    expect(h.client.callsTo('passwords.authenticate')).toHaveLength(1);
  });
});

describe('forgot password', () => {
  it('sends a member with a password the reset e-mail and remembers the address', async () => {
    const h = inAcme(searchAnswers(member({ member_password_id: 'member-password-test-1' })));
    h.client.answer('passwords.resetByEmailStart', async () => resetStarted());
    await forgotPassword(h.ctx, 'ada@acme.test');
    expect(h.client.callsTo('organization.members.search')).toEqual([
      { email_address: 'ada@acme.test', organization_id: 'organization-test-acme' },
    ]);
    expect(h.client.callsTo('passwords.resetByEmailStart')).toEqual([
      {
        organization_id: 'organization-test-acme',
        email_address: 'ada@acme.test',
        login_redirect_url: 'http://localhost:3000/in',
        reset_password_redirect_url: RESET_URL,
        reset_password_expiration_minutes: 45,
        reset_password_template_id: 'reset-t',
        locale: 'en',
      },
    ]);
    expect(h.state().screen).toBe('PasswordSetNewConfirmation');
    expect(h.state().password).toMatchObject({
      email: 'ada@acme.test',
      resetEmail: 'ada@acme.test',
    });
    expect(h.storage.get(KEY)).toBe('"ada@acme.test"');
  });

  it('shows the server message when the reset e-mail cannot be sent', async () => {
    const h = inAcme(searchAnswers(member({ member_password_id: 'member-password-test-1' })));
    h.client.answer('passwords.resetByEmailStart', () =>
      Promise.reject(apiError('invalid_redirect_url', 'Bad redirect', 400)),
    );
    await forgotPassword(h.ctx, 'ada@acme.test');
    expect(h.state()).toMatchObject({
      screen: 'Main',
      form: { isSubmitting: false, error: 'Bad redirect' },
    });
  });

  it('sends a member without a password a login link to the reset page', async () => {
    const h = inAcme(searchAnswers(member({ member_password_id: '' })));
    h.client.answer('magicLinks.email.loginOrSignup', async () => ACK);
    await forgotPassword(h.ctx, 'ada@acme.test');
    expect(h.client.callsTo('passwords.resetByEmailStart')).toEqual([]);
    expect(h.client.callsTo('magicLinks.email.loginOrSignup')).toEqual([
      {
        email_address: 'ada@acme.test',
        organization_id: 'organization-test-acme',
        login_redirect_url: RESET_URL,
        signup_redirect_url: RESET_URL,
        login_template_id: 'login-t',
        signup_template_id: 'signup-t',
        locale: 'en',
      },
    ]);
    expect(h.state().screen).toBe('PasswordResetVerifyConfirmation');
    expect(h.state().password.email).toBe('ada@acme.test');
  });

  it('sends a newcomer from an allowed domain a login link', async () => {
    const h = inAcme(searchAnswers(null));
    h.client.answer('magicLinks.email.loginOrSignup', async () => ACK);
    await forgotPassword(h.ctx, 'grace@ACME.test');
    expect(h.state().screen).toBe('PasswordResetVerifyConfirmation');
  });

  it('refuses newcomers the organization does not let join, asking nothing more', async () => {
    const message =
      'grace@elsewhere.test does not have access to Acme. If you think this is a mistake, contact your admin.';
    const restricted = inAcme(searchAnswers(null));
    await forgotPassword(restricted.ctx, 'grace@elsewhere.test');
    expect(restricted.state().form.error).toBe(message);

    const closed = inAcme(
      searchAnswers(null),
      organization({ email_jit_provisioning: 'NOT_ALLOWED' }),
    );
    await forgotPassword(closed.ctx, 'grace@acme.test');
    expect(closed.state().form.error).toBe(
      'grace@acme.test does not have access to Acme. If you think this is a mistake, contact your admin.',
    );
    expect(restricted.client.callsTo('magicLinks.email.loginOrSignup')).toEqual([]);
    expect(closed.client.callsTo('magicLinks.email.loginOrSignup')).toEqual([]);
  });

  it('says the e-mail could not be verified when the login link fails', async () => {
    const h = inAcme(searchAnswers(null));
    h.client.answer('magicLinks.email.loginOrSignup', () =>
      Promise.reject(apiError('internal_server_error', 'Boom', 500)),
    );
    await forgotPassword(h.ctx, 'grace@acme.test');
    expect(h.state().form.error).toBe(
      'We were unable to verify your email. Please contact your admin.',
    );

    h.client.answer('magicLinks.email.loginOrSignup', () =>
      Promise.reject(apiError('invalid_email_for_jit_provisioning', 'No', 403)),
    );
    await forgotPassword(h.ctx, 'grace@acme.test');
    expect(h.state().form.error).toBe(
      'grace@acme.test does not have access to Acme. If you think this is a mistake, contact your admin.',
    );
  });

  it('shows the server message when the member lookup fails', async () => {
    const h = inAcme();
    h.client.answer('organization.members.search', () =>
      Promise.reject(apiError('too_many_requests', 'Slow down', 429)),
    );
    await forgotPassword(h.ctx, 'ada@acme.test');
    expect(h.state().form.error).toBe('Slow down');
  });
});

describe('resend', () => {
  it('resends the reset e-mail and confirms with a toast', async () => {
    const h = inAcme({ state: { screen: 'PasswordSetNewConfirmation' } });
    h.ctx.dispatch({ type: 'PASSWORD_RESET_EMAIL_SENT', email: 'ada@acme.test' });
    h.client.answer('passwords.resetByEmailStart', async () => resetStarted());
    await resendPasswordEmail(h.ctx, 'resetEmail');
    expect(h.client.callsTo('passwords.resetByEmailStart')).toMatchObject([
      { email_address: 'ada@acme.test', reset_password_redirect_url: RESET_URL },
    ]);
    expect(h.toasts).toEqual([{ kind: 'success', message: 'Email resent' }]);
    expect(h.state().form.isSubmitting).toBe(false);
  });

  it('resends the login link, and toasts the error when it fails', async () => {
    const h = inAcme();
    h.ctx.dispatch({ type: 'PASSWORD_RESET_LINK_SENT', email: 'ada@acme.test' });
    h.client.answer('magicLinks.email.loginOrSignup', () =>
      Promise.reject(apiError('too_many_requests', 'Slow down', 429)),
    );
    await resendPasswordEmail(h.ctx, 'resetLink');
    expect(h.client.callsTo('magicLinks.email.loginOrSignup')).toMatchObject([
      { email_address: 'ada@acme.test', login_redirect_url: RESET_URL },
    ]);
    expect(h.toasts).toEqual([{ kind: 'error', message: 'Slow down' }]);
    expect(h.state().screen).toBe('PasswordResetVerifyConfirmation');
  });
});

describe('the password reset page', () => {
  const resetLink = `${RESET_URL}?stytch_token_type=multi_tenant_passwords&token=rt`;
  const loginLink = `${RESET_URL}?stytch_token_type=multi_tenant_magic_links&token=ml`;

  it('starts on the reset form with the stored e-mail, only checking the link on load', async () => {
    const h = effectHarness(resetConfig, {
      pageUrl: resetLink,
      storage: { [KEY]: '"ada@acme.test"' },
    });
    expect(h.state().screen).toBe('PasswordResetForm');
    expect(h.state().password.resetEmail).toBe('ada@acme.test');
    await start(h.ctx, null);
    // The check spends nothing: the link stays usable for the reset itself.
    expect(h.client.calls.map((c) => c.method)).toEqual(['passwords.checkResetToken']);
  });

  it('resets by e-mail token with the 30-minute fallback, then logs in', async () => {
    const h = effectHarness(resetConfig, {
      pageUrl: resetLink,
      storage: { [KEY]: '"ada@acme.test"' },
    });
    const result = fullSession();
    h.client.answer('passwords.resetByEmail', async () => result);
    await resetPassword(h.ctx, 'a new long password');
    expect(h.client.callsTo('passwords.resetByEmail')).toEqual([
      {
        password_reset_token: 'rt',
        password: 'a new long password',
        session_duration_minutes: 30,
        locale: 'en',
      },
    ]);
    expect(h.url.current).toBe(RESET_URL);
    expect(h.storage.has(KEY)).toBe(false);
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([result]);
  });

  it('keeps the token and shows the server message when the reset fails', async () => {
    const h = effectHarness(resetConfig, { pageUrl: resetLink });
    h.client.answer('passwords.resetByEmail', () =>
      Promise.reject(apiError('weak_password', 'Password is too weak', 400)),
    );
    await resetPassword(h.ctx, 'short');
    expect(h.state().form.error).toBe('Password is too weak');
    expect(h.state().password.resetToken).toEqual({ type: 'multi_tenant_passwords', token: 'rt' });
    expect(h.url.current).toBe(resetLink);
  });

  it('redeems a login link on load, stays on the form, then resets by session', async () => {
    const h = effectHarness(resetConfig, { pageUrl: loginLink });
    const signedIn = { ...fullSession(), method_id: 'member-email-test-1' };
    h.client.answer('magicLinks.authenticate', async () => signedIn);
    await start(h.ctx, null);
    expect(h.client.callsTo('magicLinks.authenticate')).toEqual([
      { magic_links_token: 'ml', session_duration_minutes: 60, locale: 'en' },
    ]);
    expect(h.url.current).toBe(RESET_URL);
    expect(h.state().screen).toBe('PasswordResetForm');
    expect(h.state().password).toMatchObject({ resetToken: null, resetEmail: 'ada@acme.test' });
    // Not logged in for the host until the password is set.
    expect(h.successes).toEqual([]);

    const done = fullSession();
    h.client.answer('passwords.resetBySession', async () => done);
    await resetPassword(h.ctx, 'a new long password');
    expect(h.client.callsTo('passwords.resetBySession')).toEqual([
      { password: 'a new long password' },
    ]);
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([done]);
  });

  it('says the e-mail could not be verified when the login link fails', async () => {
    const h = effectHarness(resetConfig, { pageUrl: loginLink });
    h.client.answer('magicLinks.authenticate', () =>
      Promise.reject(apiError('magic_link_not_found', 'Not found', 404)),
    );
    await start(h.ctx, null);
    expect(h.state()).toMatchObject({
      screen: 'PasswordResetForm',
      form: {
        isSubmitting: false,
        error: 'We were unable to verify your email. Please contact your admin for help.',
      },
    });
    expect(h.state().password.resetToken).toBeNull();
  });

  it('returns to the reset form after MFA when the login link needs a second factor', async () => {
    const h = effectHarness(resetConfig, { pageUrl: loginLink });
    h.client.answer('magicLinks.authenticate', async () => ({
      ...mfaPending({ totp_registration_id: 'member-totp-test-1' }),
      method_id: 'm',
    }));
    await start(h.ctx, null);
    expect(h.state().mfa.primaryInfo?.postAuthScreen).toBe('PasswordResetForm');
  });

  it('sets a password for the session when there is no token', async () => {
    const h = effectHarness(resetConfig, { pageUrl: RESET_URL });
    h.client.answer('passwords.resetBySession', async () => fullSession());
    await resetPassword(h.ctx, 'a new long password');
    expect(h.client.callsTo('passwords.resetBySession')).toHaveLength(1);
    expect(h.state().screen).toBe('LoggedIn');
  });
});

describe('strength check', () => {
  it('asks with the reset e-mail, and answers null (reporting) when the check fails', async () => {
    const h = effectHarness(resetConfig, { storage: { [KEY]: '"ada@acme.test"' } });
    const verdict = strengthVerdict({ valid_password: true, score: 4 });
    h.client.answer('passwords.strengthCheck', async () => verdict);
    expect(await checkPasswordStrength(h.ctx, 'pw')).toBe(verdict);
    expect(h.client.callsTo('passwords.strengthCheck')).toEqual([
      { password: 'pw', email_address: 'ada@acme.test' },
    ]);

    h.client.answer('passwords.strengthCheck', () => Promise.reject(new Error('offline')));
    expect(await checkPasswordStrength(h.ctx, 'pw')).toBeNull();
    expect(h.errors).toEqual([{ message: 'offline' }]);
  });
});
