/// <reference types="node" />
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetConfig } from './config.js';
import { mount, type MountedWidget } from './mount.js';
import { createFakeClient } from '@gatehouse/testing';

const config: WidgetConfig = { products: ['emailMagicLinks'], authFlowType: 'discovery' };
let mounted: MountedWidget[] = [];

function host(): HTMLElement {
  const element = document.createElement('div');
  document.body.appendChild(element);
  return element;
}

async function mountNow(target: Element | string, options: Parameters<typeof mount>[1]) {
  let widget: MountedWidget | undefined;
  await act(async () => {
    widget = mount(target, options);
  });
  mounted.push(widget!);
  return widget!;
}

afterEach(() => {
  act(() => mounted.forEach((w) => w.unmount()));
  mounted = [];
  document.body.innerHTML = '';
  document.head.querySelectorAll('style[data-gatehouse-widget]').forEach((s) => s.remove());
});

describe('mount', () => {
  it('throws when the target is not on the page', () => {
    expect(() => mount('#nowhere', { client: createFakeClient(), config })).toThrow(
      'is not on the page',
    );
    const detached = document.createElement('div');
    expect(() => mount(detached, { client: createFakeClient(), config })).toThrow(
      'is not on the page',
    );
  });

  it('needs a client or a public token', () => {
    expect(() => mount(host(), { config })).toThrow(TypeError);
  });

  it('renders into an element found by selector, logs the render event once, and unmounts', async () => {
    const element = host();
    element.id = 'login';
    const client = createFakeClient();
    const widget = await mountNow('#login', { client, config });
    expect(await screen.findByRole('heading', { name: 'Sign up or log in' })).toBeTruthy();
    expect(client.events).toEqual([
      { name: 'render_b2b_login_screen', details: { options: config } },
    ]);
    expect(document.head.querySelector('style[data-gatehouse-widget]')).toBeTruthy();
    act(() => widget.unmount());
    mounted = [];
    expect(element.innerHTML).toBe('');
  });

  it('applies the style configuration as custom properties', async () => {
    const element = host();
    await mountNow(element, {
      client: createFakeClient(),
      config,
      styles: { container: { width: 440 }, buttons: { primary: { backgroundColor: '#4b2dcc' } } },
    });
    const root = element.querySelector<HTMLElement>('.gh-root')!;
    expect(root.style.getPropertyValue('--gh-width')).toBe('440px');
    expect(root.style.getPropertyValue('--gh-primary-bg')).toBe('#4b2dcc');
    expect(root.style.getPropertyValue('--gh-button-height')).toBe('45px');
    expect(root.style.getPropertyValue('--gh-input-height')).toBe('47px');
  });

  it('renders inside a shadow root with its own copy of the styles', async () => {
    const element = host();
    await mountNow(element, { client: createFakeClient(), config, enableShadowDOM: true });
    const shadow = element.shadowRoot!;
    expect(shadow).toBeTruthy();
    await waitFor(() =>
      expect(within(shadow as unknown as HTMLElement).getByText('Sign up or log in')).toBeTruthy(),
    );
    expect(shadow.querySelector('style[data-gatehouse-widget]')).toBeTruthy();
    expect(document.head.querySelector('style[data-gatehouse-widget]')).toBeNull();
  });
});

describe('mount with its own client against a real HTTP server', () => {
  let server: Server;
  let baseUrl: string;
  const requests: { method: string; url: string; body: unknown }[] = [];

  async function readBody(request: IncomingMessage): Promise<unknown> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    return text ? (JSON.parse(text) as unknown) : null;
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
      response.setHeader(
        'Access-Control-Allow-Headers',
        'Authorization, Content-Type, X-SDK-Client, X-SDK-Parent-Host',
      );
      response.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
      if (request.method === 'OPTIONS') {
        response.writeHead(204).end();
        return;
      }
      void readBody(request).then((body) => {
        requests.push({ method: request.method ?? '', url: request.url ?? '', body });
        const data = request.url?.startsWith('/sdk/v1/projects/bootstrap/')
          ? {
              request_id: 'request-id-test-1',
              status_code: 200,
              disable_sdk_watermark: true,
              captcha_settings: { enabled: false },
              cname_domain: null,
              email_domains: ['mail.gatehouse.test'],
              pkce_required_for_email_magic_links: false,
              pkce_required_for_password_resets: false,
              pkce_required_for_oauth: false,
              pkce_required_for_sso: false,
              slug_pattern: null,
              create_organization_enabled: true,
              password_config: null,
              dfp_protected_auth_enabled: false,
              rbac_policy: { roles: [], resources: [] },
            }
          : { request_id: 'request-id-test-2', status_code: 200 };
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('creates the client from the public token and sends a discovery link through it', async () => {
    const widget = await mountNow(host(), {
      publicToken: 'public-token-test-mount',
      baseUrl,
      config,
    });
    fireEvent.input(await screen.findByLabelText('Email'), {
      target: { value: 'ada@acme.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with email' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole<HTMLAnchorElement>('link', { name: 'Gmail' }).href).toContain(
        'mail.gatehouse.test',
      ),
    );
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /sdk/v1/projects/bootstrap/public-token-test-mount',
        'POST /sdk/v1/b2b/magic_links/email/discovery/send',
      ]),
    );
    const send = requests.find((r) => r.url === '/sdk/v1/b2b/magic_links/email/discovery/send');
    expect(send?.body).toMatchObject({ email_address: 'ada@acme.test' });

    // Unmounting stops the client, which flushes the queued render event to the server.
    act(() => widget.unmount());
    mounted = [];
    await waitFor(() => expect(requests.some((r) => r.url === '/sdk/v1/events')).toBe(true));
    const events = requests.find((r) => r.url === '/sdk/v1/events')?.body;
    expect(events).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          event_name: 'render_b2b_login_screen',
          details: { options: config },
        }) as unknown,
      }),
    ]);
  });
});
