/** The widget's state machine: every screen change of docs/widget.md §4 as a pure function of an event. */
import type { AuthResult, DiscoveredOrganization } from '@gatehouse/protocol';
import type { BootstrapConfig } from '../client.js';
import type { ResolvedConfig } from '../config.js';
import { reduceMfa, type MfaEvent } from './mfa-reducer.js';
import { routeAfterPrimaryAuth } from './routing.js';
import { isRenderedScreen, type Screen } from './screens.js';
import {
  EMPTY_MFA_STATE,
  IDLE_FORM,
  type ErrorScreenType,
  type FlowOrganization,
  type RequiredReset,
  type WidgetState,
} from './state.js';

export type { MfaEvent, MfaScreenRequest } from './mfa-reducer.js';

/** Everything that can happen to the widget. */
export type WidgetEvent =
  | { type: 'BOOTSTRAP_LOADED'; bootstrap: BootstrapConfig }
  /** The slug lookup of the organization flow answered with an organization. */
  | { type: 'ORGANIZATION_FOUND'; organization: FlowOrganization }
  /** No slug in the URL, no such organization, or the lookup failed. */
  | { type: 'ORGANIZATION_NOT_FOUND' }
  | { type: 'EMAIL_SUBMITTED' }
  | { type: 'EMAIL_SENT'; email: string }
  | { type: 'EMAIL_FAILED'; message: string }
  /** 'Try again' or 'Try a different email address'. */
  | { type: 'RETURN_TO_MAIN' }
  /** A call that signs the user in has started. */
  | { type: 'AUTH_STARTED' }
  /** The page is about to navigate away (SSO or OAuth). */
  | { type: 'REDIRECTING' }
  /** The navigation could not start; back to where the user was. */
  | { type: 'REDIRECT_FAILED'; returnTo: 'Main' | 'Discovery' }
  /**
   * `now` is epoch milliseconds, for MFA code expiry. `fromResetToken`: the result redeemed a
   * login link sent for a password reset, so the new password is still to be set.
   */
  | { type: 'PRIMARY_AUTH_SUCCEEDED'; result: AuthResult; now: number; fromResetToken?: boolean }
  /** A form of the current screen is being submitted. */
  | { type: 'FORM_SUBMITTED' }
  /** The submission failed; `message` is shown under the form. */
  | { type: 'FORM_FAILED'; message: string }
  /** A submission that changes no screen (a resend) is over. */
  | { type: 'FORM_SETTLED' }
  /** 'Use a password instead', carrying what the e-mail field held. */
  | { type: 'PASSWORD_LOGIN_REQUESTED'; email: string }
  /** 'Having trouble signing in? Get help', carrying what the e-mail field held. */
  | { type: 'FORGOT_PASSWORD_REQUESTED'; email: string }
  /** A password login is being submitted for this address. */
  | { type: 'PASSWORD_SUBMITTED'; email: string }
  /**
   * A member with a password was sent a reset e-mail; `required` when their organization requires
   * a new password before they sign in, naming the reset start used.
   */
  | { type: 'PASSWORD_RESET_EMAIL_SENT'; email: string; required?: RequiredReset }
  /** A member without a password, or a newcomer, was sent a login link to the reset page. */
  | { type: 'PASSWORD_RESET_LINK_SENT'; email: string }
  /** The reset page's token was used up (redeemed, or found invalid with `message`). */
  | { type: 'RESET_TOKEN_SPENT'; message?: string; unusable?: boolean }
  | MfaEvent
  | {
      type: 'DISCOVERY_AUTHENTICATED';
      email: string;
      discoveredOrganizations: DiscoveredOrganization[];
      intermediateSessionToken: string;
    }
  /** An organization whose login must be shown before entering it. */
  | { type: 'DISCOVERY_LOGIN_REQUIRED'; discovered: DiscoveredOrganization }
  /** Entering a discovered organization failed; the user may pick again. */
  | { type: 'DISCOVERY_EXCHANGE_FAILED' }
  | { type: 'FAILED'; errorType: ErrorScreenType };

function showError(state: WidgetState, errorType: ErrorScreenType): WidgetState {
  return { ...state, screen: 'Error', errorType, form: IDLE_FORM };
}

function afterPrimaryAuth(
  state: WidgetState,
  result: AuthResult,
  now: number,
  config: ResolvedConfig,
  fromResetToken: boolean,
): WidgetState {
  const route = routeAfterPrimaryAuth(result, config, now, fromResetToken);
  // A reset link's member is who the new password is for: show their address on the form.
  const password =
    fromResetToken && !state.password.resetEmail
      ? { ...state.password, resetEmail: result.member.email_address }
      : state.password;
  const next: WidgetState = { ...state, mfa: route.mfa, password, form: IDLE_FORM };
  // Routing only names rendered screens; should that ever change, say so rather than show nothing.
  if (!isRenderedScreen(route.screen)) return showError(next, 'default');
  return { ...next, screen: route.screen };
}

/** Moves to a password screen, remembering the e-mail for the forms that follow. */
function withPasswordEmail(state: WidgetState, screen: Screen, email: string): WidgetState {
  return { ...state, screen, password: { ...state.password, email }, form: IDLE_FORM };
}

/**
 * The next state. Pure: calls to the client happen in effects, which report back with events.
 *
 * @example
 * const next = reduce(state, { type: 'EMAIL_SENT', email: 'ada@example.com' }, config);
 * next.screen; // 'EmailConfirmation'
 */
export function reduce(
  state: WidgetState,
  event: WidgetEvent,
  config: ResolvedConfig,
): WidgetState {
  switch (event.type) {
    case 'BOOTSTRAP_LOADED':
      return { ...state, bootstrap: event.bootstrap };

    case 'ORGANIZATION_FOUND': {
      // A late answer must not override a flow that a URL token or a choice has since set.
      if (state.flow.type !== 'organization' || state.flow.organization) return state;
      const flow = { ...state.flow, organization: event.organization };
      // A token being redeemed or a session already present keeps its own screen.
      return { ...state, flow, screen: state.screen === 'Loading' ? 'Main' : state.screen };
    }

    case 'ORGANIZATION_NOT_FOUND':
      return state.screen === 'Loading' ? showError(state, 'organization') : state;

    case 'EMAIL_SUBMITTED':
      return { ...state, form: { isSubmitting: true, error: null } };

    case 'EMAIL_SENT':
      return {
        ...state,
        screen: 'EmailConfirmation',
        magicLink: { email: event.email },
        form: IDLE_FORM,
      };

    case 'EMAIL_FAILED':
      return { ...state, form: { isSubmitting: false, error: event.message } };

    case 'RETURN_TO_MAIN':
      return { ...state, screen: 'Main', form: IDLE_FORM };

    case 'AUTH_STARTED':
      return { ...state, screen: 'LoggingIn', form: IDLE_FORM };

    case 'REDIRECTING':
      return { ...state, screen: 'Loading' };

    case 'REDIRECT_FAILED':
      return { ...state, screen: event.returnTo };

    case 'PRIMARY_AUTH_SUCCEEDED':
      return afterPrimaryAuth(
        state,
        event.result,
        event.now,
        config,
        event.fromResetToken ?? false,
      );

    case 'FORM_SUBMITTED':
      return { ...state, form: { isSubmitting: true, error: null } };

    case 'FORM_FAILED':
      return { ...state, form: { isSubmitting: false, error: event.message } };

    case 'FORM_SETTLED':
      return { ...state, form: IDLE_FORM };

    case 'PASSWORD_LOGIN_REQUESTED':
      return withPasswordEmail(state, 'PasswordAuthenticate', event.email);

    case 'FORGOT_PASSWORD_REQUESTED':
      return withPasswordEmail(state, 'PasswordForgotForm', event.email);

    case 'PASSWORD_SUBMITTED':
      return {
        ...state,
        password: { ...state.password, email: event.email },
        form: { isSubmitting: true, error: null },
      };

    case 'PASSWORD_RESET_EMAIL_SENT':
      return {
        ...withPasswordEmail(state, 'PasswordSetNewConfirmation', event.email),
        password: {
          ...state.password,
          email: event.email,
          resetEmail: event.email,
          requiredReset: event.required ?? null,
        },
      };

    case 'PASSWORD_RESET_LINK_SENT':
      return withPasswordEmail(state, 'PasswordResetVerifyConfirmation', event.email);

    case 'MFA_METHOD_CHOSEN':
    case 'MFA_SCREEN_REQUESTED':
    case 'SMS_SEND_STARTED':
    case 'SMS_SENT':
    case 'SMS_SEND_FAILED':
    case 'TOTP_CREATE_STARTED':
    case 'TOTP_CREATED':
    case 'TOTP_CREATE_FAILED':
    case 'MFA_SUCCEEDED':
    case 'RECOVERY_CODES_SAVED':
      return reduceMfa(state, event);

    case 'RESET_TOKEN_SPENT':
      return {
        ...state,
        password: {
          ...state.password,
          resetToken: null,
          resetLinkProblem: event.unusable ? 'unusable' : null,
        },
        form: { isSubmitting: false, error: event.message ?? null },
      };

    case 'DISCOVERY_AUTHENTICATED':
      return {
        ...state,
        screen: 'Discovery',
        flow: { type: 'discovery', organization: null },
        discovery: {
          email: event.email,
          discoveredOrganizations: event.discoveredOrganizations,
          intermediateSessionToken: event.intermediateSessionToken,
        },
        mfa: EMPTY_MFA_STATE,
        form: IDLE_FORM,
      };

    case 'DISCOVERY_LOGIN_REQUIRED':
      // The organization asks for a primary method the discovery e-mail did not prove: show its
      // own login, with the e-mail already filled in.
      return {
        ...state,
        screen: 'Main',
        flow: { type: 'organization', organization: event.discovered.organization },
        password: { ...state.password, email: state.discovery.email },
        magicLink: { email: state.discovery.email },
        form: IDLE_FORM,
      };

    case 'DISCOVERY_EXCHANGE_FAILED':
      return { ...state, screen: 'Discovery', form: IDLE_FORM };

    case 'FAILED':
      return showError(state, event.errorType);
  }
}
