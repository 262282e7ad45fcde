/** The host's callbacks and the event types the widget reports through them (docs/widget.md §7). */
import type { WidgetError } from './errors.js';

/** An event reported to the host's onEvent callback. */
export interface WidgetEventReport {
  type: string;
  data: unknown;
}

/**
 * Callbacks a host page can pass to the widget.
 *
 * @example
 * const callbacks: WidgetCallbacks = { onSuccess: (data) => location.assign('/dashboard') };
 */
export interface WidgetCallbacks {
  /** A tracked call succeeded. */
  onEvent?(event: WidgetEventReport): void;
  /** A call failed. */
  onError?(error: WidgetError): void;
  /** The member is logged in; receives the authentication response. */
  onSuccess?(data: unknown): void;
}

/** The tracked event types, declared once. */
export const EVENT_TYPES = {
  magicLinkLoginOrSignup: 'MAGIC_LINK_LOGIN_OR_SIGNUP',
  magicLinkDiscoverySend: 'B2B_MAGIC_LINK_EMAIL_DISCOVERY_SEND',
  magicLinkAuthenticate: 'MAGIC_LINK_AUTHENTICATE',
  magicLinkDiscoveryAuthenticate: 'B2B_MAGIC_LINK_EMAIL_DISCOVERY_AUTHENTICATE',
  discoveryOrganizationsCreate: 'B2B_DISCOVERY_ORGANIZATIONS_CREATE',
  discoveryIntermediateSessionExchange: 'B2B_DISCOVERY_INTERMEDIATE_SESSION_EXCHANGE',
  oauthAuthenticate: 'B2B_OAUTH_AUTHENTICATE',
  oauthDiscoveryAuthenticate: 'B2B_OAUTH_DISCOVERY_AUTHENTICATE',
  ssoAuthenticate: 'B2B_SSO_AUTHENTICATE',
  smsOtpSend: 'B2B_SMS_OTP_SEND',
  smsOtpAuthenticate: 'B2B_SMS_OTP_AUTHENTICATE',
  totpCreate: 'B2B_TOTP_CREATE',
  totpAuthenticate: 'B2B_TOTP_AUTHENTICATE',
  recoveryCodesRecover: 'B2B_RECOVERY_CODES_RECOVER',
} as const;

/** A tracked event type. */
export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];

/** The event the widget logs once per mount, with its options. */
export const RENDER_EVENT_NAME = 'render_b2b_login_screen';

/**
 * Calls a host callback without letting its failure break the widget: a throwing callback is a
 * host bug, reported on the console, and the sign-in carries on.
 */
export function invokeCallback<K extends keyof WidgetCallbacks>(
  callbacks: WidgetCallbacks,
  name: K,
  arg: Parameters<NonNullable<WidgetCallbacks[K]>>[0],
): void {
  const callback = callbacks[name] as ((value: typeof arg) => void) | undefined;
  if (!callback) return;
  try {
    callback.call(callbacks, arg);
  } catch (error) {
    console.error(`Gatehouse widget: the ${name} callback threw`, error);
  }
}
