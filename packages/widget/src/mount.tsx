/** Mounting the widget into any page element, optionally inside a shadow root. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient, type CaptchaOptions } from '@gatehouse/client';
import type { GatehouseClient } from './client.js';
import type { WidgetConfig } from './config.js';
import type { WidgetCallbacks } from './machine/callbacks.js';
import type { WidgetStyles } from './theme.js';
import { LoginWidget } from './login-widget.js';

/** Options of {@link mount}: a client, or the public token (and base URL) to create one. */
export interface MountOptions {
  publicToken?: string;
  /** The Gatehouse server origin, when the widget creates its own client. */
  baseUrl?: string;
  client?: GatehouseClient;
  /** The captcha provider and script URL, when the widget creates its own client. */
  captcha?: CaptchaOptions;
  config: WidgetConfig;
  styles?: WidgetStyles;
  callbacks?: WidgetCallbacks;
  /** Render inside a shadow root, isolated from the page's CSS; defaults to `config.enableShadowDOM`. */
  enableShadowDOM?: boolean;
}

/** A mounted widget. */
export interface MountedWidget {
  /** Removes the widget; a client the widget created is stopped too. */
  unmount(): void;
}

/** The element `target` names; throws when it is not on the page. */
export function resolveTarget(target: Element | string): Element {
  const element = typeof target === 'string' ? document.querySelector(target) : target;
  if (!element || !element.isConnected) {
    const name = typeof target === 'string' ? target : 'element';
    throw new Error(`Gatehouse: the mount target ${name} is not on the page.`);
  }
  return element;
}

/**
 * Renders the login widget into an element of the page.
 *
 * @throws Error when the target element is not on the page, TypeError without a client or token.
 * @example
 * const widget = Gatehouse.mount('#login', {
 *   publicToken: 'public-token-test-…',
 *   baseUrl: 'https://auth.example.com',
 *   config: { products: ['emailMagicLinks'], authFlowType: 'organization' },
 * });
 * widget.unmount();
 */
export function mount(target: Element | string, options: MountOptions): MountedWidget {
  const element = resolveTarget(target);
  let client = options.client;
  const ownsClient = !client;
  if (!client) {
    if (!options.publicToken) {
      throw new TypeError('Gatehouse: mount needs a client or a publicToken.');
    }
    client = createClient(options.publicToken, {
      baseUrl: options.baseUrl,
      ...(options.captcha ? { captcha: options.captcha } : {}),
    });
  }
  const shadow = options.enableShadowDOM ?? options.config.enableShadowDOM ?? false;
  const container = shadow
    ? (element.shadowRoot ?? element.attachShadow({ mode: 'open' }))
    : element;
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <LoginWidget
        client={client}
        config={options.config}
        styles={options.styles}
        callbacks={options.callbacks}
      />
    </StrictMode>,
  );
  return {
    unmount() {
      root.unmount();
      if (ownsClient) client.destroy();
    },
  };
}
