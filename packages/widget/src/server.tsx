/**
 * The server entry, `@gatehouse/widget/server`: the first screen as HTML, for hosts that render
 * their pages on a server and hydrate the widget in the browser (docs/widget.md §14).
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { defaultBootstrap } from '@gatehouse/client';
import type { GatehouseClient } from './client.js';
import type { WidgetConfig } from './config.js';
import type { WidgetEnvironment } from './machine/effects.js';
import css from './styles.css?inline';
import type { WidgetStyles } from './theme.js';
import { WidgetApp } from './widget-app.js';

/** Options of {@link renderWidgetToString}. */
export interface RenderWidgetOptions {
  /** The project's public token, as the browser's client has it. */
  publicToken: string;
  /** The configuration `hydrate` is given in the browser, exactly. */
  config: WidgetConfig;
  /** The styles `hydrate` is given in the browser, exactly. */
  styles?: WidgetStyles;
  /** The page's full URL. */
  url: string;
}

/** Nothing runs on the server: the first render only reads the session and the bootstrap. */
function serverClient(publicToken: string): GatehouseClient {
  const client: Pick<GatehouseClient, 'publicToken' | 'getBootstrap'> & {
    session: Pick<GatehouseClient['session'], 'getSnapshot'>;
  } = {
    publicToken,
    getBootstrap: defaultBootstrap,
    session: { getSnapshot: () => null },
  };
  return client as GatehouseClient;
}

function serverEnvironment(url: URL): WidgetEnvironment {
  const nothing = () => {};
  return {
    location: url,
    replaceUrl: nothing,
    now: () => Date.now(),
    toastError: nothing,
    toastSuccess: nothing,
    copyText: () => Promise.resolve(),
    downloadText: nothing,
    storage: null,
  };
}

/**
 * The widget's first screen as HTML, for a visitor without a session and without a sign-in token
 * in the URL, to put inside the element that `hydrate` is then called on. Render the page with
 * {@link widgetStyleElement} in its head, so the markup is styled before any script runs.
 *
 * @example
 * const html = renderWidgetToString({ publicToken, config, url: 'https://app.example.com/login' });
 * reply.send(`<head>${widgetStyleElement()}</head><body><div id="login">${html}</div>…`);
 */
export function renderWidgetToString(options: RenderWidgetOptions): string {
  return renderToString(
    <StrictMode>
      <WidgetApp
        client={serverClient(options.publicToken)}
        config={options.config}
        styles={options.styles}
        environment={serverEnvironment(new URL(options.url))}
        startBootstrap={defaultBootstrap()}
      />
    </StrictMode>,
  );
}

/**
 * The widget's style sheet as a `<style>` element for the page head. The widget recognizes it
 * and does not add its own copy.
 *
 * @example
 * const head = `<title>Sign in</title>${widgetStyleElement()}`;
 */
export function widgetStyleElement(): string {
  return `<style data-gatehouse-widget="widget">${css}</style>`;
}

/** The widget's style sheet, for hosts that serve it themselves. */
export const WIDGET_STYLE_SHEET: string = css;
