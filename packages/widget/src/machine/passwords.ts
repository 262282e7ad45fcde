/** The password effects: login, forgotten passwords, resets and strength checks (docs/widget.md §4, §5). */
import type { PasswordStrengthResult } from '../client.js';
import { EVENT_TYPES } from './callbacks.js';
import {
  clearUrlQuery,
  completePrimaryAuth,
  reportFailure,
  reportSuccess,
  type EffectContext,
} from './context.js';
import { apiErrorOf, describeError } from './errors.js';
import { passwordLoginErrorMessage, resetLinkErrorMessage } from './password-errors.js';
import { clearResetEmail, writeResetEmail } from './reset-email.js';
import { emailMayJoin } from './password-rules.js';
import { showDiscoveredOrganizations } from './discovery.js';
import type { FlowOrganization, RequiredReset } from './state.js';
import type { ResetToken } from './urls.js';

/** The organization password calls are made in, unless a submission is already under way. */
function readyOrganization(ctx: EffectContext): FlowOrganization | null {
  const state = ctx.getState();
  if (state.form.isSubmitting) return null;
  return state.flow.organization;
}

/** Logs in with e-mail and password (docs/widget.md §4 "Password flows"). */
export async function authenticatePassword(
  ctx: EffectContext,
  email: string,
  password: string,
): Promise<void> {
  const organization = readyOrganization(ctx);
  if (!organization) return;
  ctx.dispatch({ type: 'PASSWORD_SUBMITTED', email });
  try {
    const result = await ctx.client.passwords.authenticate({
      organization_id: organization.organization_id,
      email_address: email,
      password,
      session_duration_minutes: ctx.config.passwordSessionDurationMinutes,
      locale: ctx.config.locale,
    });
    completePrimaryAuth(ctx, result);
  } catch (error) {
    reportFailure(ctx, error);
    if (apiErrorOf(error)?.error_type === 'reset_password') {
      await startRequiredReset(ctx, organization.organization_id, email);
      return;
    }
    ctx.dispatch({ type: 'FORM_FAILED', message: passwordLoginErrorMessage(error, ctx.format) });
  }
}

/**
 * The organization requires a new password, and the password typed was the right one (the server
 * answers `reset_password` to nothing else): the reset e-mail goes out at once, through the
 * discovery reset when the widget runs the discovery flow, so its link leads back to the
 * organizations of the address (docs/widget.md §4 "Password flows").
 */
async function startRequiredReset(ctx: EffectContext, organizationId: string, email: string) {
  const required: RequiredReset =
    ctx.config.authFlowType === 'discovery' ? 'discovery' : 'organization';
  try {
    if (required === 'discovery') await sendDiscoveryResetEmail(ctx, email);
    else await sendResetEmail(ctx, organizationId, email);
    ctx.dispatch({ type: 'PASSWORD_RESET_EMAIL_SENT', email, required });
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FORM_FAILED', message: describeError(error, ctx.format).message });
  }
}

/** Sends the discovery reset e-mail, whose link answers with the address's organizations. */
async function sendDiscoveryResetEmail(ctx: EffectContext, email: string) {
  const options = ctx.config.passwordOptions;
  await ctx.client.passwords.discovery.resetByEmailStart({
    email_address: email,
    discovery_redirect_url: ctx.config.emailMagicLinksOptions.discoveryRedirectURL,
    reset_password_redirect_url: options.resetPasswordRedirectURL,
    reset_password_expiration_minutes: options.resetPasswordExpirationMinutes,
    reset_password_template_id: options.resetPasswordTemplateId,
    locale: ctx.config.locale,
  });
  writeResetEmail(ctx.env, ctx.client.publicToken, email);
}

/** Sends a member who has a password the reset e-mail, and remembers the address for the form. */
async function sendResetEmail(ctx: EffectContext, organizationId: string, email: string) {
  const options = ctx.config.passwordOptions;
  await ctx.client.passwords.resetByEmailStart({
    organization_id: organizationId,
    email_address: email,
    login_redirect_url: ctx.config.emailMagicLinksOptions.loginRedirectURL,
    reset_password_redirect_url: options.resetPasswordRedirectURL,
    reset_password_expiration_minutes: options.resetPasswordExpirationMinutes,
    reset_password_template_id: options.resetPasswordTemplateId,
    locale: ctx.config.locale,
  });
  writeResetEmail(ctx.env, ctx.client.publicToken, email);
}

/**
 * Sends anyone else a login link that lands on the reset page, where the signed-in member sets a
 * password (both redirect URLs are the reset URL, docs/protocol.md §7.1).
 */
async function sendResetLink(ctx: EffectContext, organizationId: string, email: string) {
  const resetUrl = ctx.config.passwordOptions.resetPasswordRedirectURL;
  const options = ctx.config.emailMagicLinksOptions;
  await ctx.client.magicLinks.email.loginOrSignup({
    email_address: email,
    organization_id: organizationId,
    login_redirect_url: resetUrl,
    signup_redirect_url: resetUrl,
    login_template_id: options.loginTemplateId,
    signup_template_id: options.signupTemplateId,
    locale: ctx.config.locale,
  });
}

/**
 * 'Having trouble signing in?': a member with a password gets a reset e-mail; a member without
 * one, or a newcomer the organization lets join, gets a login link to the reset page.
 */
export async function forgotPassword(ctx: EffectContext, email: string): Promise<void> {
  const organization = readyOrganization(ctx);
  if (!organization) return;
  const organizationId = organization.organization_id;
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  let hasPassword: boolean;
  try {
    const { member } = await ctx.client.organization.members.search({
      email_address: email,
      organization_id: organizationId,
    });
    hasPassword = Boolean(member?.member_password_id);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FORM_FAILED', message: describeError(error, ctx.format).message });
    return;
  }

  if (hasPassword) {
    try {
      await sendResetEmail(ctx, organizationId, email);
      ctx.dispatch({ type: 'PASSWORD_RESET_EMAIL_SENT', email });
    } catch (error) {
      reportFailure(ctx, error);
      ctx.dispatch({ type: 'FORM_FAILED', message: describeError(error, ctx.format).message });
    }
    return;
  }

  const organizationName = organization.organization_name;
  if (!emailMayJoin(organization, email)) {
    ctx.dispatch({
      type: 'FORM_FAILED',
      message: ctx.format('email.noAccess', { email, organizationName }),
    });
    return;
  }
  try {
    await sendResetLink(ctx, organizationId, email);
    ctx.dispatch({ type: 'PASSWORD_RESET_LINK_SENT', email });
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({
      type: 'FORM_FAILED',
      message: resetLinkErrorMessage(error, email, organizationName, ctx.format),
    });
  }
}

/** 'Resend email' on the confirmations: the same message again, and a toast that says so. */
export async function resendPasswordEmail(
  ctx: EffectContext,
  kind: 'resetEmail' | 'resetLink',
): Promise<void> {
  const organization = readyOrganization(ctx);
  if (!organization) return;
  const { email, requiredReset } = ctx.getState().password;
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  try {
    if (kind === 'resetEmail' && requiredReset === 'discovery') {
      await sendDiscoveryResetEmail(ctx, email);
    } else {
      const send = kind === 'resetEmail' ? sendResetEmail : sendResetLink;
      await send(ctx, organization.organization_id, email);
    }
    ctx.env.toastSuccess(ctx.format('passwordSetNew.resent'));
  } catch (error) {
    reportFailure(ctx, error);
    ctx.env.toastError(describeError(error, ctx.format).message);
  }
  ctx.dispatch({ type: 'FORM_SETTLED' });
}

/**
 * Signs in with the login link a reset sent to a member without a password. The new password is
 * set afterwards, by session; a link that fails says so on the reset form.
 */
export async function redeemResetLink(ctx: EffectContext, token: ResetToken): Promise<void> {
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  try {
    const result = await ctx.client.magicLinks.authenticate({
      magic_links_token: token.token,
      session_duration_minutes: ctx.config.sessionDurationMinutes,
      locale: ctx.config.locale,
    });
    // Tokens are single-use: a reload must not replay this one.
    clearUrlQuery(ctx);
    reportSuccess(ctx, EVENT_TYPES.magicLinkAuthenticate, result);
    ctx.dispatch({ type: 'RESET_TOKEN_SPENT' });
    completePrimaryAuth(ctx, result, true);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({
      type: 'RESET_TOKEN_SPENT',
      message: ctx.format('password.magicLinkResetFailed'),
      unusable: true,
    });
  }
}

/**
 * Asks whether the reset link can still set a password, without spending it, so that a used or
 * expired link says so before a password is typed. Any other failure (offline, say) leaves the
 * form: the reset itself will tell.
 */
export async function checkResetLink(ctx: EffectContext, token: ResetToken): Promise<void> {
  try {
    await ctx.client.passwords.checkResetToken({ password_reset_token: token.token });
  } catch (error) {
    if (apiErrorOf(error)?.error_type !== 'password_reset_token_not_found') return;
    clearUrlQuery(ctx);
    ctx.dispatch({ type: 'RESET_TOKEN_SPENT', unusable: true });
  }
}

/**
 * Sets the new password: with the reset link's token when there is one (a discovery reset link
 * goes on to the organizations of the address, as a discovery link does), otherwise for the
 * member signed in now (after a login link, or from an existing session).
 */
export async function resetPassword(ctx: EffectContext, password: string): Promise<void> {
  const state = ctx.getState();
  if (state.form.isSubmitting) return;
  const token = state.password.resetToken;
  ctx.dispatch({ type: 'FORM_SUBMITTED' });
  try {
    if (token?.type === 'multi_tenant_passwords') {
      const result = await ctx.client.passwords.resetByEmail({
        password_reset_token: token.token,
        password,
        session_duration_minutes: ctx.config.passwordSessionDurationMinutes,
        locale: ctx.config.locale,
      });
      clearUrlQuery(ctx);
      clearResetEmail(ctx.env, ctx.client.publicToken);
      ctx.dispatch({ type: 'RESET_TOKEN_SPENT' });
      completePrimaryAuth(ctx, result);
    } else if (token?.type === 'discovery') {
      const result = await ctx.client.passwords.discovery.resetByEmail({
        password_reset_token: token.token,
        password,
      });
      clearUrlQuery(ctx);
      clearResetEmail(ctx.env, ctx.client.publicToken);
      ctx.dispatch({ type: 'RESET_TOKEN_SPENT' });
      await showDiscoveredOrganizations(ctx, result);
    } else {
      completePrimaryAuth(ctx, await ctx.client.passwords.resetBySession({ password }));
    }
  } catch (error) {
    reportFailure(ctx, error);
    if (apiErrorOf(error)?.error_type === 'password_reset_token_not_found') {
      ctx.dispatch({ type: 'RESET_TOKEN_SPENT', unusable: true });
      return;
    }
    ctx.dispatch({ type: 'FORM_FAILED', message: describeError(error, ctx.format).message });
  }
}

/**
 * The server's verdict on a candidate password, or null when it could not be had (the failure is
 * reported to the host; the server still checks the password when it is submitted).
 */
export async function checkPasswordStrength(
  ctx: EffectContext,
  password: string,
): Promise<PasswordStrengthResult | null> {
  const email = ctx.getState().password.resetEmail;
  try {
    return await ctx.client.passwords.strengthCheck({
      password,
      ...(email ? { email_address: email } : {}),
    });
  } catch (error) {
    reportFailure(ctx, error);
    return null;
  }
}
