// The server entry's markup, hydrated in place by `hydrate` without a mismatch; and `hydrate`
// mounting afresh where the browser knows more than the server did (docs/widget.md §14).
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeClient, member, memberSession, organization } from '@gatehouse/testing';
import type { WidgetConfig } from './config.js';
import { hydrate } from './hydrate.js';
import type { MountedWidget } from './mount.js';
import { renderWidgetToString, widgetStyleElement } from './server.js';

const config: WidgetConfig = {
  products: ['emailMagicLinks', 'passwords'],
  authFlowType: 'discovery',
};
let mounted: MountedWidget[] = [];

/** A page as the server sent it: the style element in the head, the markup in the host element. */
function serverPage(): HTMLElement {
  document.head.insertAdjacentHTML('beforeend', widgetStyleElement());
  const element = document.createElement('div');
  element.innerHTML = renderWidgetToString({
    publicToken: 'public-token-test-1',
    config,
    url: location.href,
  });
  document.body.appendChild(element);
  return element;
}

afterEach(() => {
  act(() => mounted.forEach((w) => w.unmount()));
  mounted = [];
  document.body.innerHTML = '';
  document.head.querySelectorAll('style[data-gatehouse-widget]').forEach((s) => s.remove());
  vi.restoreAllMocks();
});

describe('server rendering and hydrate', () => {
  it('renders the first screen, and hydrate takes the same elements over without an error', async () => {
    const element = serverPage();
    const heading = element.querySelector('h1');
    expect(heading?.textContent).toBe('Sign up or log in');
    const root = element.firstElementChild;
    const text = element.textContent;
    const errors = vi.spyOn(console, 'error');
    const client = createFakeClient();
    await act(async () => {
      mounted.push(hydrate(element, { client, config }));
    });
    // The same elements and text, taken over by a widget that runs: it logged its render event.
    expect(screen.getByRole('heading', { name: 'Sign up or log in' })).toBe(heading);
    expect(element.firstElementChild).toBe(root);
    expect(element.textContent).toBe(text);
    expect(errors).not.toHaveBeenCalled();
    // The server's style element is the widget's: no second copy.
    expect(document.head.querySelectorAll('style[data-gatehouse-widget]')).toHaveLength(1);
    expect(client.events).toHaveLength(1);
  });

  it('mounts afresh when the browser holds a session the server did not know of', async () => {
    const element = serverPage();
    const serverHeading = element.querySelector('h1');
    const client = createFakeClient();
    client.setSession({
      session: memberSession(),
      member: member(),
      organization: organization(),
    });
    await act(async () => {
      mounted.push(hydrate(element, { client, config }));
    });
    expect(await screen.findByText('Success!')).toBeTruthy();
    expect(serverHeading?.isConnected).toBe(false);
  });

  it('refuses a shadow root, which cannot be server-rendered', () => {
    const element = serverPage();
    expect(() =>
      hydrate(element, {
        client: createFakeClient(),
        config: { ...config, enableShadowDOM: true },
      }),
    ).toThrow(TypeError);
  });
});
