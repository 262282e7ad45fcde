// Google One Tap on Main: offered only where configured and allowed, started into the
// organization or for discovery, its failures shown as spec §8 words them, with developer hints.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { ACK, apiError, type FakeClient, organization } from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

let warnings: string[];
beforeEach(() => {
  warnings = [];
  vi.spyOn(console, 'warn').mockImplementation((message: string) => warnings.push(message));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const oauth = {
  providers: [{ type: 'google' as const, one_tap: true }, 'microsoft' as const],
  loginRedirectURL: 'https://app.acme.test/login',
  signupRedirectURL: 'https://app.acme.test/signup',
  discoveryRedirectURL: 'https://app.acme.test/discover',
};
const discovery: WidgetConfig = {
  products: ['oauth', 'emailMagicLinks'],
  authFlowType: 'discovery',
  oauthOptions: oauth,
};
const inOrganization: WidgetConfig = { ...discovery, authFlowType: 'organization' };

const withOrganization =
  (org = organization()) =>
  (client: FakeClient) =>
    client.answer('organization.getBySlug', async () => ({ ...ACK, organization: org }));

describe('One Tap', () => {
  it('starts for discovery with the discovery redirect URL', async () => {
    const { client } = renderWidget(discovery, {
      prepare: (c) =>
        c.answer('oauth.googleOneTap.discovery.start', async () => ({ success: true })),
    });
    await waitFor(() =>
      expect(client.callsTo('oauth.googleOneTap.discovery.start')).toHaveLength(1),
    );
    expect(client.callsTo('oauth.googleOneTap.discovery.start')[0]).toMatchObject({
      discovery_redirect_url: 'https://app.acme.test/discover',
    });
    expect(screen.queryByRole('status', { name: /One Tap/ })).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('starts into the organization once it is known', async () => {
    const { client } = renderWidget(inOrganization, {
      prepare: (c) => {
        withOrganization()(c);
        c.answer('oauth.googleOneTap.start', async () => ({ success: true }));
      },
    });
    await waitFor(() => expect(client.callsTo('oauth.googleOneTap.start')).toHaveLength(1));
    expect(client.callsTo('oauth.googleOneTap.start')[0]).toMatchObject({
      organization_id: organization().organization_id,
      login_redirect_url: 'https://app.acme.test/login',
      signup_redirect_url: 'https://app.acme.test/signup',
    });
  });

  it('is not offered where the organization does not allow Google, or without one_tap', async () => {
    const { client } = renderWidget(inOrganization, {
      prepare: withOrganization(
        organization({ auth_methods: 'RESTRICTED', allowed_auth_methods: ['microsoft_oauth'] }),
      ),
    });
    await screen.findByRole('heading', { name: 'Continue to Acme' });
    cleanup();
    const plain = renderWidget({ ...discovery, oauthOptions: { providers: ['google'] } });
    await screen.findByRole('heading', { name: 'Sign up or log in' });
    expect(client.callsTo('oauth.googleOneTap.start')).toEqual([]);
    expect(plain.client.callsTo('oauth.googleOneTap.discovery.start')).toEqual([]);
  });

  it("says 'One Tap could not load' with the reason, and hints the developer", async () => {
    renderWidget(discovery, {
      prepare: (c) =>
        c.answer('oauth.googleOneTap.discovery.start', async () => ({
          success: false,
          reason: 'oauth_config_not_found',
        })),
    });
    expect((await screen.findByRole('status')).textContent).toBe(
      'One Tap could not load (oauth_config_not_found)',
    );
    expect(warnings).toEqual([expect.stringContaining('no Google OAuth client is configured')]);
  });

  it('shows the reason when the user closes the prompt', async () => {
    renderWidget(discovery, {
      prepare: (c) =>
        c.answer('oauth.googleOneTap.discovery.start', async (args) => {
          args?.onOneTapCancelled?.('user_cancel');
          return { success: true };
        }),
    });
    expect((await screen.findByRole('status')).textContent).toBe(
      'One Tap could not load (user_cancel)',
    );
  });

  it('toasts a submit the server refused and reports it', async () => {
    const { toasts, errors } = renderWidget(discovery, {
      prepare: (c) =>
        c.answer('oauth.googleOneTap.discovery.start', async (args) => {
          args?.onOneTapError?.(apiError('unauthorized_credentials', 'The ID token is not valid.'));
          return { success: true };
        }),
    });
    await waitFor(() => expect(toasts).toEqual(['The ID token is not valid.']));
    expect(errors).toHaveLength(1);
  });

  it('warns when the redirect URLs are missing', async () => {
    renderWidget(
      { ...inOrganization, oauthOptions: { providers: [{ type: 'google', one_tap: true }] } },
      {
        prepare: (c) => {
          withOrganization()(c);
          c.answer('oauth.googleOneTap.start', async () => ({ success: true }));
        },
      },
    );
    await waitFor(() =>
      expect(warnings).toEqual([expect.stringContaining('loginRedirectURL or signupRedirectURL')]),
    );
  });
});
