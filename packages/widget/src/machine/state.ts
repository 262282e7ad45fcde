/** The widget's state (docs/widget.md §3) and how it starts. */
import type {
  DiscoveredOrganization,
  FullSessionResult,
  MfaMethod,
  OrganizationSlugSubset,
} from '@gatehouse/protocol';
import type { BootstrapConfig } from '../client.js';
import type { ResolvedConfig } from '../config.js';
import type { Screen } from './screens.js';
import type { ResetToken, UrlToken } from './urls.js';

/** How the user reaches an organization. Password reset starts on the reset form. */
export type FlowType = 'organization' | 'discovery' | 'password_reset';

/** The three messages of the Error screen (docs/widget.md §8). */
export type ErrorScreenType = 'default' | 'email_magic_link' | 'organization';

/** The organization being signed in to: from the slug lookup or from a discovery choice. */
export type FlowOrganization = OrganizationSlugSubset;

export interface FlowState {
  type: FlowType;
  organization: FlowOrganization | null;
}

export interface DiscoveryState {
  email: string;
  discoveredOrganizations: DiscoveredOrganization[];
  intermediateSessionToken: string;
}

/** What primary authentication left for MFA to finish (docs/widget.md §3 "MFA state"). */
export interface MfaPrimaryInfo {
  memberId: string;
  organizationId: string;
  /** Names the backup codes file. */
  organizationName: string;
  memberPhoneNumber: string | null;
  enrolledMfaMethods: MfaMethod[];
  organizationMfaOptionsSupported: MfaMethod[];
  /** Where to go once MFA succeeds. */
  postAuthScreen: Screen;
}

export interface MfaState {
  primaryInfo: MfaPrimaryInfo | null;
  isEnrolling: boolean;
  smsOtp: {
    isSending: boolean;
    sendError: string | null;
    /** Epoch milliseconds; null when no code is pending. */
    codeExpiration: number | null;
    formattedDestination: string | null;
    enrolledNumber: { countryCode: string; phoneNumber: string } | null;
  };
  totp: {
    isCreating: boolean;
    error: string | null;
    enrollment: { qrCode: string; secret: string; recoveryCodes: string[] } | null;
    displayMethod: 'qr' | 'manual';
  };
  /**
   * The session an enrollment ended with, held while the member saves the backup codes: the host
   * hears of it on 'Done', so that leaving the page cannot lose the codes.
   */
  completedResult: FullSessionResult | null;
}

/** The password flows' memory (docs/widget.md §3 "password state"). */
export interface PasswordState {
  /** The e-mail last typed into a password form, carried to the next one. */
  email: string;
  /** The address a reset was sent to, shown (disabled) on the reset form. */
  resetEmail: string | null;
  /** The reset page's token, until it is redeemed. */
  resetToken: ResetToken | null;
  /**
   * Why the reset page cannot set a password: it was opened without a link (and without a
   * session), or its link is unknown, expired or used. The form gives way to what to do instead.
   */
  resetLinkProblem: 'missing' | 'unusable' | null;
  /**
   * Set when the reset e-mail went out because the organization requires a new password (a
   * right password answered `reset_password`): which reset start sent it, so a resend uses the
   * same one, and the confirmation says why.
   */
  requiredReset: RequiredReset | null;
}

/** Which reset start a required reset used: the organization's, or discovery's. */
export type RequiredReset = 'organization' | 'discovery';

/** The state of a form being submitted on the current screen. */
export interface FormState {
  isSubmitting: boolean;
  /** A message for the user, already in words. */
  error: string | null;
}

/** Everything the widget renders from. */
export interface WidgetState {
  screen: Screen;
  flow: FlowState;
  /** Which message the Error screen shows. */
  errorType: ErrorScreenType;
  bootstrap: BootstrapConfig;
  magicLink: { email: string };
  password: PasswordState;
  discovery: DiscoveryState;
  mfa: MfaState;
  form: FormState;
}

/** What is known when the widget mounts. */
export interface StartContext {
  config: ResolvedConfig;
  bootstrap: BootstrapConfig;
  hasSession: boolean;
  /** A token the widget will authenticate on load, if any. */
  urlToken: UrlToken | null;
  /** The token of the password reset page (PasswordReset flow only). */
  resetToken?: ResetToken | null;
  /** The reset e-mail this browser stored when it asked for a reset link. */
  storedResetEmail?: string | null;
}

/** The MFA state with nothing in progress. */
export const EMPTY_MFA_STATE: MfaState = {
  primaryInfo: null,
  isEnrolling: false,
  smsOtp: {
    isSending: false,
    sendError: null,
    codeExpiration: null,
    formattedDestination: null,
    enrolledNumber: null,
  },
  totp: { isCreating: false, error: null, enrollment: null, displayMethod: 'qr' },
  completedResult: null,
};

export const EMPTY_DISCOVERY_STATE: DiscoveryState = {
  email: '',
  discoveredOrganizations: [],
  intermediateSessionToken: '',
};

export const IDLE_FORM: FormState = { isSubmitting: false, error: null };

/** The flow state's name for each configured flow. */
const FLOW_TYPE: Record<StartContext['config']['authFlowType'], FlowType> = {
  organization: 'organization',
  discovery: 'discovery',
  passwordReset: 'password_reset',
};

/**
 * The first screen: the reset form in the PasswordReset flow, LoggedIn with a session, a spinner
 * while a token or organization loads, Main otherwise.
 */
function firstScreen(start: StartContext): Screen {
  if (start.config.authFlowType === 'passwordReset') return 'PasswordResetForm';
  if (start.hasSession) return 'LoggedIn';
  if (start.urlToken) return 'LoggingIn';
  // The organization flow cannot show Main until the slug lookup has answered.
  if (start.config.authFlowType === 'organization') return 'Loading';
  return 'Main';
}

/** The state the widget mounts with. */
export function initialState(start: StartContext): WidgetState {
  return {
    screen: firstScreen(start),
    flow: { type: FLOW_TYPE[start.config.authFlowType], organization: null },
    errorType: 'default',
    bootstrap: start.bootstrap,
    magicLink: { email: '' },
    password: {
      email: '',
      resetEmail: start.storedResetEmail ?? null,
      resetToken: start.resetToken ?? null,
      resetLinkProblem:
        start.config.authFlowType === 'passwordReset' && !start.resetToken && !start.hasSession
          ? 'missing'
          : null,
      requiredReset: null,
    },
    discovery: EMPTY_DISCOVERY_STATE,
    mfa: EMPTY_MFA_STATE,
    form: IDLE_FORM,
  };
}
