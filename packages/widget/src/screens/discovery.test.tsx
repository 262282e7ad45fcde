import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import type { DiscoveredOrganization } from '@gatehouse/protocol';
import {
  apiError,
  type FakeClient,
  discovered,
  discoveryResult,
  fullSession,
} from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(cleanup);

const config: WidgetConfig = { products: ['emailMagicLinks'], authFlowType: 'discovery' };
const pageUrl = 'http://localhost:3000/discover?stytch_token_type=discovery&token=tok';

function discover(
  organizations: DiscoveredOrganization[],
  options: { config?: WidgetConfig; prepare?(client: FakeClient): void } = {},
) {
  return renderWidget(options.config ?? config, {
    pageUrl,
    prepare: (c) => {
      c.answer('magicLinks.discovery.authenticate', async () => discoveryResult(organizations));
      options.prepare?.(c);
    },
  });
}

describe('Discovery', () => {
  it('lists the organizations with logo or letter, name and action label', async () => {
    const { url } = discover([
      discovered('active_member', { organization_id: 'o1', organization_name: 'Acme' }),
      discovered('invited_member', { organization_id: 'o2', organization_name: 'Globex' }),
      discovered('pending_member', { organization_id: 'o3', organization_name: 'Initech' }),
      discovered('eligible_to_join_by_email_domain', {
        organization_id: 'o4',
        organization_name: 'Umbrella',
        organization_logo_url: 'https://logo.test/u.png',
      }),
    ]);
    expect(
      await screen.findByRole('heading', { name: 'Select an organization to continue' }),
    ).toBeTruthy();
    expect(url.current).toBe('http://localhost:3000/discover');
    const rows = screen.getAllByRole('listitem').map((li) => within(li).getByRole('button'));
    expect(rows.map((row) => row.textContent)).toEqual([
      'AAcme',
      'GGlobexAccept Invite',
      'IInitechJoin',
      'UmbrellaJoin',
    ]);
    expect(rows[0]?.querySelector('svg')).toBeTruthy();
    expect(rows[3]?.querySelector('img')?.getAttribute('src')).toBe('https://logo.test/u.png');
    expect(screen.getByRole('button', { name: 'Create an organization' })).toBeTruthy();
  });

  it('shows the empty state that invites creating an organization', async () => {
    discover([]);
    expect(
      await screen.findByRole('heading', { name: 'Create an organization to get started' }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'ada@acme.test does not have an account. Think this is a mistake? Try a different email address, or contact your admin.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create an organization' })).toBeTruthy();
  });

  it('shows the empty state without creation when the configuration disables it', async () => {
    discover([], { config: { ...config, disableCreateOrganization: true } });
    expect(
      await screen.findByRole('heading', {
        name: 'ada@acme.test does not belong to any organizations.',
      }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Make sure your email address is correct. Otherwise, you might need to be invited by your admin.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create an organization' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try a different email address' }));
    expect(await screen.findByRole('heading', { name: 'Sign up or log in' })).toBeTruthy();
  });

  it('hides creation when the project does not allow it', async () => {
    discover([discovered('active_member')], {
      prepare: (c) => c.setBootstrap({ createOrganizationEnabled: false }),
    });
    await screen.findByRole('heading', { name: 'Select an organization to continue' });
    expect(screen.queryByRole('button', { name: 'Create an organization' })).toBeNull();
  });

  it('enters an organization and reports success', async () => {
    const result = fullSession();
    const { client, successes } = discover([discovered('active_member')], {
      prepare: (c) => c.answer('discovery.intermediateSessions.exchange', async () => result),
    });
    fireEvent.click(await screen.findByRole('button', { name: /Acme/ }));
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeTruthy();
    expect(client.callsTo('discovery.intermediateSessions.exchange')).toEqual([
      { organization_id: 'organization-test-acme', session_duration_minutes: 60 },
    ]);
    expect(successes).toEqual([result]);
  });

  it('shows the organization login when it requires another primary method', async () => {
    discover([
      discovered(
        'active_member',
        { organization_name: 'Vault' },
        {
          allowed_auth_methods: ['magic_link'],
        },
      ),
    ]);
    fireEvent.click(await screen.findByRole('button', { name: /Vault/ }));
    expect(await screen.findByRole('heading', { name: 'Continue to Vault' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('ada@acme.test');
  });

  it('creates an organization, or shows the error screen when that fails', async () => {
    const { client } = discover([], {
      prepare: (c) =>
        c.answer('discovery.organizations.create', () =>
          Promise.reject(apiError('organization_creation_not_allowed', 'No', 403)),
        ),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create an organization' }));
    expect(
      await screen.findByRole('heading', { name: 'Looks like there was an error!' }),
    ).toBeTruthy();
    expect(
      screen.getByText('Something went wrong. Try again later or contact your admin for help.'),
    ).toBeTruthy();
    expect(client.callsTo('discovery.organizations.create')).toEqual([
      { session_duration_minutes: 60 },
    ]);
  });
});
