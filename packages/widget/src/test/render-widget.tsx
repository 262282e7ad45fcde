/** Renders the widget against the fake client in happy-dom, with a recorded environment. */
import { act, render, type RenderResult } from '@testing-library/react';
import { vi } from 'vitest';
import type { WidgetConfig } from '../config.js';
import type { WidgetCallbacks, WidgetEventReport } from '../machine/callbacks.js';
import type { WidgetError } from '../machine/errors.js';
import type { WidgetStyles } from '../theme.js';
import { WidgetApp } from '../widget-app.js';
import { createFakeClient, type FakeClient } from '@gatehouse/testing';

export interface RenderedWidget extends RenderResult {
  client: FakeClient;
  toasts: string[];
  /** Success toasts, recorded apart from the error ones. */
  successToasts: string[];
  clipboard: string[];
  downloads: { fileName: string; text: string }[];
  url: { current: string };
  events: WidgetEventReport[];
  errors: WidgetError[];
  successes: unknown[];
}

export interface RenderOptions {
  client?: FakeClient;
  pageUrl?: string;
  styles?: WidgetStyles;
  /** Answers to set on the client before the widget mounts. */
  prepare?(client: FakeClient): void;
  /** The widget's clock; the real one (or the fake timers' Date) by default. */
  now?: () => number;
  /** Makes the clipboard refuse writes, as insecure pages do. */
  clipboardFails?: boolean;
}

/**
 * Lets the work an event or a timer started run to its end. The screens' effects load lazily, so
 * a click's effect starts only once its module's import settles, some ticks later: this waits for
 * every pending import and a turn of the event loop (on real timers, so beside fake ones too),
 * inside `act`, without relying on how many ticks a renderer's `act` drains by itself.
 */
export async function settle(): Promise<void> {
  await act(() => vi.dynamicImportSettled());
}

/** Mounts the widget; the page URL, navigations and toasts are recorded instead of performed. */
export function renderWidget(config: WidgetConfig, options: RenderOptions = {}): RenderedWidget {
  const client = options.client ?? createFakeClient();
  options.prepare?.(client);
  const location = new URL(options.pageUrl ?? 'http://localhost:3000/acme/login');
  const recorded = {
    toasts: [] as string[],
    successToasts: [] as string[],
    clipboard: [] as string[],
    downloads: [] as { fileName: string; text: string }[],
    url: { current: location.href },
    events: [] as WidgetEventReport[],
    errors: [] as WidgetError[],
    successes: [] as unknown[],
  };
  const callbacks: WidgetCallbacks = {
    onEvent: (e) => recorded.events.push(e),
    onError: (e) => recorded.errors.push(e),
    onSuccess: (d) => recorded.successes.push(d),
  };
  const result = render(
    <WidgetApp
      client={client}
      config={config}
      styles={options.styles}
      callbacks={callbacks}
      environment={{
        location,
        replaceUrl: (url) => (recorded.url.current = new URL(url, location).href),
        now: options.now ?? (() => Date.now()),
        toastError: (message) => recorded.toasts.push(message),
        toastSuccess: (message) => recorded.successToasts.push(message),
        copyText: (text) => {
          if (options.clipboardFails) return Promise.reject(new Error('Write permission denied.'));
          recorded.clipboard.push(text);
          return Promise.resolve();
        },
        downloadText: (fileName, text) => recorded.downloads.push({ fileName, text }),
      }}
    />,
  );
  return { ...result, client, ...recorded };
}
