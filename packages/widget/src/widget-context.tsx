/** What every screen and part reads: the state, the configuration and the actions. */
import { createContext, useContext } from 'react';
import type { DiscoveredOrganization, MfaMethod } from '@gatehouse/protocol';
import type { GoogleOneTapStartResult, PasswordStrengthResult } from './client.js';
import type { ResolvedConfig, ResolvedOAuthProvider } from './config.js';
import type { EnteredPhoneNumber } from './machine/mfa.js';
import type { MfaScreenRequest } from './machine/reducer.js';
import type { WidgetState } from './machine/state.js';
import type { WidgetStyles } from './theme.js';

/** What a screen can ask the widget to do; each runs an effect of the machine. */
export interface WidgetActions {
  sendEmailMagicLink: (email: string) => void;
  returnToMain: () => void;
  chooseOrganization: (discovered: DiscoveredOrganization) => void;
  createOrganization: () => void;
  startOAuth: (provider: ResolvedOAuthProvider) => void;
  startSso: (connectionId: string) => void;
  /** Shows Google's One Tap prompt; `onCancelled` hears when the user dismisses it. */
  startOneTap: (onCancelled: (reason: string) => void) => Promise<GoogleOneTapStartResult>;
  /** Closes the One Tap prompt, if open. */
  cancelOneTap: () => void;
  /** 'Use a password instead', with what the e-mail field holds. */
  showPasswordLogin: (email: string) => void;
  /** 'Having trouble signing in? Get help', with what the e-mail field holds. */
  showForgotPassword: (email: string) => void;
  authenticatePassword: (email: string, password: string) => void;
  forgotPassword: (email: string) => void;
  /** 'Resend email' on the reset e-mail or the reset login link confirmation. */
  resendPasswordEmail: (kind: 'resetEmail' | 'resetLink') => void;
  resetPassword: (password: string) => void;
  /** The server's strength verdict for a candidate password; null when unavailable. */
  checkPasswordStrength: (password: string) => Promise<PasswordStrengthResult | null>;
  chooseMfaMethod: (method: MfaMethod) => void;
  showMfaScreen: (screen: MfaScreenRequest) => void;
  /** Sends a code to a number being enrolled, or without one to the member's phone. */
  sendSmsCode: (phone?: EnteredPhoneNumber) => void;
  /** What entering SMSOTPEntry does: send a code unless one is pending. */
  sendSmsCodeIfNonePending: () => void;
  authenticateSms: (code: string) => void;
  /** What entering TOTPEnrollmentQRCode does: create the registration, once. */
  createTotp: () => void;
  authenticateTotp: (code: string) => void;
  recoverWithCode: (code: string) => void;
  copyTotpSecret: () => void;
  downloadRecoveryCodes: () => void;
  copyRecoveryCodes: () => void;
  /** 'Done' on RecoveryCodeSave. */
  finishRecoveryCodes: () => void;
}

export interface WidgetContextValue {
  state: WidgetState;
  config: ResolvedConfig;
  styles: WidgetStyles;
  actions: WidgetActions;
  /** The widget's clock, in epoch milliseconds (for the SMS code countdown). */
  now: () => number;
  /**
   * Whether a screen that appears now takes focus to its heading: only once the user has acted
   * in the widget, so that screens changing on their own while the page loads leave focus alone.
   */
  shouldFocusHeading: () => boolean;
}

const WidgetContext = createContext<WidgetContextValue | null>(null);

/** Provides the widget context to the screens. */
export const WidgetProvider = WidgetContext.Provider;

/** The widget context; only valid inside the widget. */
export function useWidget(): WidgetContextValue {
  const value = useContext(WidgetContext);
  if (!value) throw new Error('useWidget must be used inside the Gatehouse login widget');
  return value;
}
