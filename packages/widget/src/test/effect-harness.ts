/** Runs machine effects against the fake client and a real store, recording what they report. */
import { resolveConfig, type WidgetConfig } from '../config.js';
import type { WidgetCallbacks, WidgetEventReport } from '../machine/callbacks.js';
import type { EffectContext } from '../machine/context.js';
import type { WidgetError } from '../machine/errors.js';
import { readResetEmail } from '../machine/reset-email.js';
import { initialState, type WidgetState } from '../machine/state.js';
import { createMachineStore } from '../machine/store.js';
import { readResetToken, readUrlToken } from '../machine/urls.js';
import { createFakeClient, type FakeClient } from '@gatehouse/testing';
import { en } from '../messages/en.js';
import { createFormat } from '../messages/format.js';

export interface EffectHarness {
  ctx: EffectContext;
  client: FakeClient;
  state: () => WidgetState;
  events: WidgetEventReport[];
  errors: WidgetError[];
  successes: unknown[];
  toasts: { kind: 'error' | 'success'; message: string }[];
  url: { current: string };
  /** The page's storage, in memory. */
  storage: Map<string, string>;
  /** Texts put on the clipboard. */
  clipboard: string[];
  downloads: { fileName: string; text: string }[];
}

export interface EffectHarnessOptions {
  pageUrl?: string;
  /** The machine state to start from, on top of the initial one. */
  state?: Partial<WidgetState>;
  storage?: Record<string, string>;
  prepare?(client: FakeClient): void;
  /** Makes the clipboard refuse writes, as insecure pages do. */
  clipboardFails?: boolean;
  /** The clock of the widget; one second past the epoch by default. */
  now?: () => number;
}

/** Builds a context the way the widget does on mount, with the page and storage simulated. */
export function effectHarness(
  config: WidgetConfig,
  options: EffectHarnessOptions = {},
): EffectHarness {
  const client = createFakeClient();
  options.prepare?.(client);
  const resolved = resolveConfig(config);
  const pageUrl = options.pageUrl ?? 'http://localhost:3000/acme/login';
  const location = new URL(pageUrl);
  const storage = new Map(Object.entries(options.storage ?? {}));
  const recorded = {
    events: [] as WidgetEventReport[],
    errors: [] as WidgetError[],
    successes: [] as unknown[],
    toasts: [] as EffectHarness['toasts'],
    url: { current: pageUrl },
    clipboard: [] as string[],
    downloads: [] as EffectHarness['downloads'],
  };
  const env: EffectContext['env'] = {
    location,
    replaceUrl: (next) => (recorded.url.current = new URL(next, location).href),
    now: options.now ?? (() => 1_000),
    toastError: (message) => recorded.toasts.push({ kind: 'error', message }),
    toastSuccess: (message) => recorded.toasts.push({ kind: 'success', message }),
    copyText: (text) => {
      if (options.clipboardFails) return Promise.reject(new Error('Write permission denied.'));
      recorded.clipboard.push(text);
      return Promise.resolve();
    },
    downloadText: (fileName, text) => recorded.downloads.push({ fileName, text }),
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
  };
  const resetFlow = resolved.authFlowType === 'passwordReset';
  const initial = initialState({
    config: resolved,
    bootstrap: client.getBootstrap(),
    hasSession: false,
    urlToken: resetFlow ? null : readUrlToken(location.search),
    resetToken: resetFlow ? readResetToken(location.search) : null,
    storedResetEmail: readResetEmail(env, client.publicToken),
  });
  const store = createMachineStore({ ...initial, ...options.state }, resolved);
  const callbacks: WidgetCallbacks = {
    onEvent: (e) => recorded.events.push(e),
    onError: (e) => recorded.errors.push(e),
    onSuccess: (d) => recorded.successes.push(d),
  };
  const ctx: EffectContext = {
    client,
    config: resolved,
    callbacks,
    env,
    dispatch: store.dispatch,
    format: createFormat(en),
    getState: store.getState,
  };
  return { ctx, client, state: store.getState, storage, ...recorded };
}
