/** What effects work with, and the reporting every effect shares. */
import type { AuthResult } from '@gatehouse/protocol';
import type { GatehouseClient } from '../client.js';
import type { ResolvedConfig } from '../config.js';
import type { Format } from '../messages/format.js';
import { invokeCallback, type EventType, type WidgetCallbacks } from './callbacks.js';
import { captchaErrorMessage, describeError } from './errors.js';
import type { WidgetEvent } from './reducer.js';
import type { WidgetState } from './state.js';
import { urlWithoutQuery } from './urls.js';

/** What the effects need from the page; the browser's by default, replaceable in tests. */
export interface WidgetEnvironment {
  /** The page URL. */
  location: Pick<Location, 'href' | 'origin' | 'pathname' | 'search' | 'hash'>;
  /** Replaces the URL in place (no navigation). */
  replaceUrl: (url: string) => void;
  /** Epoch milliseconds. */
  now: () => number;
  /** Shows a short error notice. */
  toastError: (message: string) => void;
  /** Shows a short success notice. */
  toastSuccess: (message: string) => void;
  /** Puts text on the clipboard; rejects when the page may not. */
  copyText: (text: string) => Promise<void>;
  /** Saves text as a file the browser downloads. */
  downloadText: (fileName: string, text: string) => void;
  /** The page's localStorage, or null where it is unavailable. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

/** Everything an effect works with. */
export interface EffectContext {
  client: GatehouseClient;
  config: ResolvedConfig;
  callbacks: WidgetCallbacks;
  env: WidgetEnvironment;
  dispatch: (event: WidgetEvent) => void;
  getState: () => WidgetState;
  /** The widget's messages in its locale (docs/widget.md §3). */
  format: Format;
}

export function reportSuccess(ctx: EffectContext, type: EventType, data: unknown): void {
  invokeCallback(ctx.callbacks, 'onEvent', { type, data });
}

/** Tells the host through onError; a failed captcha is also shown to the person as a toast. */
export function reportFailure(ctx: EffectContext, error: unknown): void {
  invokeCallback(ctx.callbacks, 'onError', describeError(error, ctx.format));
  const captcha = captchaErrorMessage(error, ctx.format);
  if (captcha) ctx.env.toastError(captcha);
}

/**
 * Reports a login result and moves the machine on; onSuccess fires only for a full session, and
 * not for a reset link's sign-in, whose new password is still to be set.
 */
export function completePrimaryAuth(
  ctx: EffectContext,
  result: AuthResult,
  fromResetToken = false,
): void {
  ctx.dispatch({ type: 'PRIMARY_AUTH_SUCCEEDED', result, now: ctx.env.now(), fromResetToken });
  if (result.member_session && !fromResetToken) {
    invokeCallback(ctx.callbacks, 'onSuccess', result);
  }
}

/** Strips the redeemed token from the URL, keeping path and fragment. */
export function clearUrlQuery(ctx: EffectContext): void {
  ctx.env.replaceUrl(urlWithoutQuery(ctx.env.location));
}
