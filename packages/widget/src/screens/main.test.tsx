import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { ACK, apiError, type FakeClient, organization } from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(cleanup);

const discovery: WidgetConfig = {
  products: ['emailMagicLinks', 'oauth'],
  authFlowType: 'discovery',
  oauthOptions: { providers: ['google', 'microsoft'] },
};

function withOrganization(org = organization()) {
  return (client: FakeClient) =>
    client.answer('organization.getBySlug', async () => ({ ...ACK, organization: org }));
}

describe('Main in the discovery flow', () => {
  it('shows the heading, the e-mail form, the divider and the OAuth buttons in order', async () => {
    const { container } = renderWidget(discovery);
    expect(await screen.findByRole('heading', { name: 'Sign up or log in' })).toBeTruthy();
    const texts = Array.from(
      container.querySelectorAll('input, button, .gh-divider'),
      (el) => (el as HTMLInputElement).placeholder || el.textContent,
    );
    expect(texts).toEqual([
      'example@email.com',
      'Continue with email',
      'or',
      'Continue with Google',
      'Continue with Microsoft',
    ]);
  });

  it('labels the e-mail field and makes it a required e-mail input', () => {
    renderWidget(discovery);
    const input = screen.getByLabelText<HTMLInputElement>('Email');
    expect(input.type).toBe('email');
    expect(input.required).toBe(true);
  });

  it('has no divider with a single kind of block', () => {
    const { container } = renderWidget({
      products: ['emailMagicLinks'],
      authFlowType: 'discovery',
    });
    expect(container.querySelector('.gh-divider')).toBeNull();
  });

  it('refuses a malformed address with the spec message, announced', async () => {
    const { client } = renderWidget(discovery);
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ada@acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with email' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email address');
    expect(client.callsTo('magicLinks.email.discovery.send')).toEqual([]);
  });

  it('sends a discovery link, disabling the button while it sends', async () => {
    let release: () => void = () => undefined;
    const { client, events } = renderWidget(discovery, {
      prepare: (c) =>
        c.answer(
          'magicLinks.email.discovery.send',
          () => new Promise((resolve) => (release = () => resolve(ACK))),
        ),
    });
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ada@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with email' }));
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue with email' });
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(client.callsTo('magicLinks.email.discovery.send')).toEqual([
      { email_address: 'ada@acme.test', locale: 'en' },
    ]);
    expect(events.map((e) => e.type)).toEqual(['B2B_MAGIC_LINK_EMAIL_DISCOVERY_SEND']);
  });

  it('starts OAuth discovery through the client', async () => {
    const { client } = renderWidget(discovery, {
      prepare: (c) =>
        c.answer('oauth.microsoft.discovery.start', () => new Promise(() => undefined)),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Microsoft' }));
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeTruthy();
    expect(client.callsTo('oauth.microsoft.discovery.start')).toEqual([
      { discovery_redirect_url: undefined, custom_scopes: undefined, provider_params: undefined },
    ]);
  });

  it('shows the app logo from the styles', () => {
    renderWidget(discovery, { styles: { logo: { logoImageUrl: 'https://app.test/logo.png' } } });
    expect(screen.getByRole<HTMLImageElement>('img', { name: 'Logo' }).src).toBe(
      'https://app.test/logo.png',
    );
  });
});

describe('Main in the organization flow', () => {
  const config: WidgetConfig = {
    products: ['oauth', 'sso', 'emailMagicLinks'],
    authFlowType: 'organization',
    oauthOptions: { providers: ['google', 'microsoft'] },
  };
  const sso = [
    { connection_id: 'saml-connection-test-1', display_name: 'Okta', identity_provider: 'okta' },
  ];

  it('names the organization and offers its SSO connections before the rule and the form', async () => {
    const { container } = renderWidget(config, {
      prepare: withOrganization(organization({ sso_active_connections: sso })),
    });
    expect(await screen.findByRole('heading', { name: 'Continue to Acme' })).toBeTruthy();
    const texts = Array.from(
      container.querySelectorAll('button, .gh-divider'),
      (el) => el.textContent,
    );
    expect(texts).toEqual([
      'Continue with Google',
      'Continue with Microsoft',
      'Continue with Okta',
      'or',
      'Continue with email',
    ]);
  });

  it('looks up the slug the page gives, whatever its URL', async () => {
    const { client } = renderWidget(
      { ...config, organizationSlug: 'umbrella' },
      { pageUrl: 'http://127.0.0.1:3000/anywhere', prepare: withOrganization() },
    );
    expect(await screen.findByRole('heading', { name: 'Continue to Acme' })).toBeTruthy();
    expect(client.callsTo('organization.getBySlug')).toEqual([{ organization_slug: 'umbrella' }]);
  });

  it('shows only what a restricting organization allows', async () => {
    const { container } = renderWidget(config, {
      prepare: withOrganization(
        organization({
          auth_methods: 'RESTRICTED',
          allowed_auth_methods: ['google_oauth', 'magic_link'],
          sso_active_connections: sso,
        }),
      ),
    });
    await screen.findByRole('heading', { name: 'Continue to Acme' });
    const texts = Array.from(
      container.querySelectorAll('button, .gh-divider'),
      (el) => el.textContent,
    );
    expect(texts).toEqual(['Continue with Google', 'or', 'Continue with email']);
  });

  it('starts SSO into the organization through the client', async () => {
    const { client } = renderWidget(
      { ...config, ssoOptions: { loginRedirectURL: 'http://localhost:3000/sso' } },
      {
        prepare: (c) => {
          withOrganization(organization({ sso_active_connections: sso }))(c);
          c.answer('sso.start', () => new Promise(() => undefined));
        },
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Okta' }));
    expect(client.callsTo('sso.start')).toEqual([
      {
        connection_id: 'saml-connection-test-1',
        login_redirect_url: 'http://localhost:3000/sso',
        signup_redirect_url: undefined,
      },
    ]);
  });

  it('explains a JIT refusal under the form', async () => {
    const { errors } = renderWidget(config, {
      prepare: (c) => {
        withOrganization()(c);
        c.answer('magicLinks.email.loginOrSignup', () =>
          Promise.reject(apiError('email_jit_provisioning_not_allowed', 'Not allowed', 403)),
        );
      },
    });
    fireEvent.input(await screen.findByLabelText('Email'), {
      target: { value: 'eve@evil.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with email' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'eve@evil.test does not have access to Acme. If you think this is a mistake, contact your admin.',
      ),
    );
    expect(errors).toEqual([
      { message: 'Not allowed', error_type: 'email_jit_provisioning_not_allowed' },
    ]);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });
});
