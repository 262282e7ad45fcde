/** What effects work with, and the reporting every effect shares. */
import type { AuthResult } from '@gatehouse/protocol';
import type { GatehouseClient } from '../client.js';
import type { ResolvedConfig } from '../config.js';
import { invokeCallback, type EventType, type WidgetCallbacks } from './callbacks.js';
import { describeError } from './errors.js';
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
}

/** Everything an effect works with. */
export interface EffectContext {
  client: GatehouseClient;
  config: ResolvedConfig;
  callbacks: WidgetCallbacks;
  env: WidgetEnvironment;
  dispatch: (event: WidgetEvent) => void;
  getState: () => WidgetState;
}

export function reportSuccess(ctx: EffectContext, type: EventType, data: unknown): void {
  invokeCallback(ctx.callbacks, 'onEvent', { type, data });
}

export function reportFailure(ctx: EffectContext, error: unknown): void {
  invokeCallback(ctx.callbacks, 'onError', describeError(error));
}

/** Reports a login result and moves the machine on; onSuccess fires only for a full session. */
export function completePrimaryAuth(ctx: EffectContext, result: AuthResult): void {
  ctx.dispatch({ type: 'PRIMARY_AUTH_SUCCEEDED', result, now: ctx.env.now() });
  if (result.member_session) invokeCallback(ctx.callbacks, 'onSuccess', result);
}

/** Strips the redeemed token from the URL, keeping path and fragment. */
export function clearUrlQuery(ctx: EffectContext): void {
  ctx.env.replaceUrl(urlWithoutQuery(ctx.env.location));
}
