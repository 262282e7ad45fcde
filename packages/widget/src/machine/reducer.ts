/** The widget's state machine: every screen change of spec §4 as a pure function of an event. */
import type { AuthResult, DiscoveredOrganization } from '@gatehouse/protocol';
import type { BootstrapConfig } from '../client.js';
import type { ResolvedConfig } from '../config.js';
import { routeAfterPrimaryAuth } from './routing.js';
import { isRenderedScreen } from './screens.js';
import {
  EMPTY_MFA_STATE,
  IDLE_FORM,
  type ErrorScreenType,
  type FlowOrganization,
  type WidgetState,
} from './state.js';

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
  /** `now` is epoch milliseconds, for MFA code expiry. */
  | { type: 'PRIMARY_AUTH_SUCCEEDED'; result: AuthResult; now: number }
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
): WidgetState {
  const route = routeAfterPrimaryAuth(result, config, now);
  const next: WidgetState = { ...state, mfa: route.mfa, form: IDLE_FORM };
  // Screens of a later release (MFA) are not rendered yet: say so rather than show nothing.
  if (!isRenderedScreen(route.screen)) return showError(next, 'default');
  return { ...next, screen: route.screen };
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
      return afterPrimaryAuth(state, event.result, event.now, config);

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
        password: { email: state.discovery.email },
        magicLink: { email: state.discovery.email },
        form: IDLE_FORM,
      };

    case 'DISCOVERY_EXCHANGE_FAILED':
      return { ...state, screen: 'Discovery', form: IDLE_FORM };

    case 'FAILED':
      return showError(state, event.errorType);
  }
}
