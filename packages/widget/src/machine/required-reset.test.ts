// A password the organization requires be reset, and a discovery reset link on the reset page
// (docs/widget.md §4 "Password flows").
import { describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { effectHarness, type EffectHarnessOptions } from '../test/effect-harness.js';
import {
  ACK,
  PUBLIC_TOKEN,
  apiError,
  discovered,
  discoveryResult,
  fullSession,
  organization,
  resetStarted,
} from '@gatehouse/testing';
import { start } from './effects.js';
import { authenticatePassword, resendPasswordEmail, resetPassword } from './passwords.js';
import { resetEmailKey } from './reset-email.js';

const RESET_URL = 'http://localhost:3000/reset';
const config: WidgetConfig = {
  products: ['emailMagicLinks', 'passwords'],
  authFlowType: 'organization',
  emailMagicLinksOptions: {
    loginRedirectURL: 'http://localhost:3000/in',
    discoveryRedirectURL: 'http://localhost:3000/discover',
  },
  passwordOptions: {
    resetPasswordRedirectURL: RESET_URL,
    resetPasswordExpirationMinutes: 45,
    resetPasswordTemplateId: 'reset-t',
  },
};
const discoveryConfig: WidgetConfig = { ...config, authFlowType: 'discovery' };
const resetConfig: WidgetConfig = { ...config, authFlowType: 'passwordReset' };
const KEY = resetEmailKey(PUBLIC_TOKEN);
const mustReset = () =>
  Promise.reject(apiError('reset_password', 'The password must be reset.', 400));

/** A harness on an organization's Main: the organization flow, or one entered from discovery. */
function onMain(widgetConfig: WidgetConfig, options: EffectHarnessOptions = {}) {
  return effectHarness(widgetConfig, {
    ...options,
    state: { screen: 'Main', flow: { type: 'organization', organization: organization() } },
  });
}

describe('a password the organization requires be reset', () => {
  it('sends the reset e-mail of the forgotten-password path and says why', async () => {
    const h = onMain(config);
    h.client.answer('passwords.authenticate', mustReset);
    h.client.answer('passwords.resetByEmailStart', async () => resetStarted());
    await authenticatePassword(h.ctx, 'ada@acme.test', 'the right password');
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
      requiredReset: 'organization',
    });
    expect(h.state().form).toEqual({ isSubmitting: false, error: null });
    expect(h.storage.get(KEY)).toBe('"ada@acme.test"');
    expect(h.errors).toEqual([
      { message: 'The password must be reset.', error_type: 'reset_password' },
    ]);
    expect(h.successes).toEqual([]);
  });

  it('uses the discovery reset start in the discovery flow, and resends with it', async () => {
    const h = onMain(discoveryConfig);
    h.client.answer('passwords.authenticate', mustReset);
    h.client.answer('passwords.discovery.resetByEmailStart', async () => ACK);
    await authenticatePassword(h.ctx, 'ada@acme.test', 'the right password');
    const sent = {
      email_address: 'ada@acme.test',
      discovery_redirect_url: 'http://localhost:3000/discover',
      reset_password_redirect_url: RESET_URL,
      reset_password_expiration_minutes: 45,
      reset_password_template_id: 'reset-t',
      locale: 'en',
    };
    expect(h.client.callsTo('passwords.discovery.resetByEmailStart')).toEqual([sent]);
    expect(h.client.callsTo('passwords.resetByEmailStart')).toEqual([]);
    expect(h.state().screen).toBe('PasswordSetNewConfirmation');
    expect(h.state().password.requiredReset).toBe('discovery');

    await resendPasswordEmail(h.ctx, 'resetEmail');
    expect(h.client.callsTo('passwords.discovery.resetByEmailStart')).toEqual([sent, sent]);
    expect(h.toasts).toEqual([{ kind: 'success', message: 'Email resent' }]);
  });

  it('stays on the form with the server message when the reset e-mail cannot be sent', async () => {
    const h = onMain(config);
    h.client.answer('passwords.authenticate', mustReset);
    h.client.answer('passwords.resetByEmailStart', () =>
      Promise.reject(apiError('too_many_requests', 'Slow down', 429)),
    );
    await authenticatePassword(h.ctx, 'ada@acme.test', 'the right password');
    expect(h.state()).toMatchObject({
      screen: 'Main',
      form: { isSubmitting: false, error: 'Slow down' },
    });
    expect(h.storage.has(KEY)).toBe(false);
  });

  it('a forgotten-password reset afterwards carries no such explanation', async () => {
    const h = onMain(config);
    h.client.answer('passwords.authenticate', mustReset);
    h.client.answer('passwords.resetByEmailStart', async () => resetStarted());
    await authenticatePassword(h.ctx, 'ada@acme.test', 'the right password');
    h.ctx.dispatch({ type: 'PASSWORD_RESET_EMAIL_SENT', email: 'ada@acme.test' });
    expect(h.state().password.requiredReset).toBeNull();
  });
});

describe('a discovery reset link on the reset page', () => {
  const link = `${RESET_URL}?stytch_token_type=discovery&token=dt`;
  const acme = discovered('active_member', { organization_id: 'o1', organization_name: 'Acme' });
  const globex = discovered('active_member', {
    organization_id: 'o2',
    organization_name: 'Globex',
  });

  it('shows the form without redeeming or checking anything on load', async () => {
    const h = effectHarness(resetConfig, { pageUrl: link, storage: { [KEY]: '"ada@acme.test"' } });
    expect(h.state().screen).toBe('PasswordResetForm');
    expect(h.state().password.resetToken).toEqual({ type: 'discovery', token: 'dt' });
    await start(h.ctx, null);
    expect(h.client.calls.map((c) => c.method)).toEqual([]);
    expect(h.url.current).toBe(link);
  });

  it('sets the password, then lists the organizations with the new IST', async () => {
    const h = effectHarness(resetConfig, { pageUrl: link, storage: { [KEY]: '"ada@acme.test"' } });
    h.client.answer('passwords.discovery.resetByEmail', async () =>
      discoveryResult([acme, globex]),
    );
    await resetPassword(h.ctx, 'a new long password');
    expect(h.client.callsTo('passwords.discovery.resetByEmail')).toEqual([
      { password_reset_token: 'dt', password: 'a new long password' },
    ]);
    expect(h.url.current).toBe(RESET_URL);
    expect(h.storage.has(KEY)).toBe(false);
    expect(h.state()).toMatchObject({
      screen: 'Discovery',
      flow: { type: 'discovery', organization: null },
      discovery: {
        email: 'ada@acme.test',
        discoveredOrganizations: [acme, globex],
        intermediateSessionToken: discoveryResult().intermediate_session_token,
      },
      password: { resetToken: null },
    });
    // No session yet: the host hears of success once an organization is entered.
    expect(h.successes).toEqual([]);
  });

  it('enters the only organization at once when direct login applies', async () => {
    const h = effectHarness(
      { ...resetConfig, directLoginForSingleMembership: { status: true } },
      { pageUrl: link },
    );
    const session = fullSession();
    h.client.answer('passwords.discovery.resetByEmail', async () => discoveryResult([acme]));
    h.client.answer('discovery.intermediateSessions.exchange', async () => session);
    await resetPassword(h.ctx, 'a new long password');
    expect(h.client.callsTo('discovery.intermediateSessions.exchange')).toEqual([
      { organization_id: 'o1', session_duration_minutes: 60 },
    ]);
    expect(h.state().screen).toBe('LoggedIn');
    expect(h.successes).toEqual([session]);
  });

  it('keeps the link for another try when the password is refused', async () => {
    const h = effectHarness(resetConfig, { pageUrl: link });
    h.client.answer('passwords.discovery.resetByEmail', () =>
      Promise.reject(apiError('weak_password', 'Password is too weak', 400)),
    );
    await resetPassword(h.ctx, 'short');
    expect(h.state().screen).toBe('PasswordResetForm');
    expect(h.state().form.error).toBe('Password is too weak');
    expect(h.state().password.resetToken).toEqual({ type: 'discovery', token: 'dt' });
    expect(h.url.current).toBe(link);
  });

  it('gives way to the path to a new link when the link is used or unknown', async () => {
    const h = effectHarness(resetConfig, { pageUrl: link });
    h.client.answer('passwords.discovery.resetByEmail', () =>
      Promise.reject(apiError('password_reset_token_not_found', 'Unknown link', 404)),
    );
    await resetPassword(h.ctx, 'a new long password');
    expect(h.state().password).toMatchObject({ resetToken: null, resetLinkProblem: 'unusable' });
    expect(h.state().screen).toBe('PasswordResetForm');
  });
});
