/** Hydrating a server-rendered first screen (docs/widget.md §14), or mounting when it cannot match. */
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createClient, defaultBootstrap } from '@gatehouse/client';
import { readUrlToken } from './machine/urls.js';
import { mount, resolveTarget, type MountedWidget, type MountOptions } from './mount.js';
import { WidgetApp } from './widget-app.js';

/** Options of {@link hydrate}: those of `mount`, without a shadow root. */
export type HydrateOptions = Omit<MountOptions, 'enableShadowDOM'>;

/**
 * Takes over the markup `renderWidgetToString` (`@gatehouse/widget/server`) put in an element,
 * with the same `config` and `styles` it was rendered with. The server renders the first screen
 * of a visitor without a session and without a sign-in token in the URL; when the page finds
 * either, the markup cannot match, and the widget is mounted afresh in its place instead.
 *
 * @throws Error when the target element is not on the page, TypeError without a client or token
 * or with `enableShadowDOM` (a shadow root cannot be server-rendered).
 * @example
 * const widget = Gatehouse.hydrate('#login', { client, config });
 * widget.unmount();
 */
export function hydrate(target: Element | string, options: HydrateOptions): MountedWidget {
  const element = resolveTarget(target);
  if (options.config.enableShadowDOM) {
    throw new TypeError('Gatehouse: a widget in a shadow root cannot be hydrated; use mount.');
  }
  let client = options.client;
  const ownsClient = !client;
  if (!client) {
    if (!options.publicToken) {
      throw new TypeError('Gatehouse: hydrate needs a client or a publicToken.');
    }
    client = createClient(options.publicToken, { baseUrl: options.baseUrl });
  }
  const matchesServer =
    client.session.getSnapshot() === null &&
    options.config.authFlowType !== 'passwordReset' &&
    readUrlToken(window.location.search) === null;
  if (!matchesServer) {
    element.replaceChildren();
    const mounted = mount(element, { ...options, client, enableShadowDOM: false });
    return {
      unmount() {
        mounted.unmount();
        if (ownsClient) client.destroy();
      },
    };
  }
  // The server rendered with what a first visit knows of the bootstrap; the fetched answer
  // applies right after, as on any first visit.
  const root = hydrateRoot(
    element,
    <StrictMode>
      <WidgetApp
        client={client}
        config={options.config}
        styles={options.styles}
        callbacks={options.callbacks}
        startBootstrap={defaultBootstrap()}
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
