// Testing an OIDC connection in the SSO section: the button for active connections and admins who
// may change SSO, the provider in a popup, and the report of each check.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OidcConnection, SsoConnectionTest } from '@gatehouse/protocol';
import { organization } from '@gatehouse/testing';
import { AdminSso } from './portal.js';
import { renderAdmin, MEMBER_PERMISSIONS } from '../test/render-admin.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ack = { request_id: 'r', status_code: 200 };
const oidc = (connection_id: string, display_name: string, status: string) =>
  ({
    connection_id,
    display_name,
    status,
    redirect_url: 'https://auth.acme.test/v1/sso/oidc/callback',
    custom_scopes: '',
    attribute_mapping: {
      email: 'email',
      first_name: 'given_name',
      last_name: 'family_name',
      groups: 'groups',
    },
    oidc_group_implicit_role_assignments: [],
    updated_at: '2026-01-01T00:00:00.000Z',
  }) as unknown as OidcConnection;

const pending: SsoConnectionTest = {
  test_id: '_test-1',
  connection_id: 'oidc-connection-test-1',
  status: 'pending',
  started_at: '',
  expires_at: '',
  finished_at: null,
  checks: [],
  error: null,
  name_id: '',
  attributes: {},
  mapped: { email: '', first_name: '', last_name: '', groups: [] },
  roles: [],
};

function renderSso(permissions?: Record<string, Record<string, boolean>>) {
  return renderAdmin((props) => <AdminSso {...props} />, {
    ...(permissions ? { permissions } : {}),
    prepare(admin) {
      admin.answer('sso.getConnections', async () => ({
        ...ack,
        saml_connections: [],
        oidc_connections: [
          oidc('oidc-connection-test-1', 'Entra', 'active'),
          oidc('oidc-connection-test-2', 'Draft', 'pending'),
        ],
        external_connections: [],
      }));
      admin.answer('organization.get', async () => ({ ...ack, organization: organization() }));
    },
  });
}

describe('testing an OIDC connection', () => {
  it('opens the provider in a popup and reports each check', async () => {
    const popup = { location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => popup),
    );
    const { admin } = renderSso();
    admin.answer('sso.oidc.testConnection', async () => ({
      ...ack,
      test: pending,
      idp_url: 'https://login.acme.test/authorize?state=s',
    }));
    admin.answer('sso.oidc.getTest', async () => ({
      ...ack,
      test: {
        ...pending,
        status: 'failed',
        error: 'unexpected JWT "nonce" claim value',
        checks: [
          { check: 'discovery', status: 'passed', message: 'Read.' },
          { check: 'nonce', status: 'failed', message: 'Another nonce.' },
          { check: 'email_verified', status: 'not_checked', message: 'Not reached.' },
        ],
      },
    }));
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Entra' }));
    fireEvent.click(screen.getByRole('button', { name: 'Manage Draft' }));
    // One button: the pending connection cannot be tested yet.
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() =>
      expect(popup.location.href).toBe('https://login.acme.test/authorize?state=s'),
    );
    expect(await screen.findByText('Another nonce.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('Discovery document')).toBeTruthy();
    expect(screen.getByText('E-mail verified')).toBeTruthy();
    expect(popup.close).toHaveBeenCalled();
    expect(admin.callsTo('sso.oidc.testConnection')).toEqual([
      { connection_id: 'oidc-connection-test-1' },
    ]);
    expect(admin.callsTo('sso.oidc.getTest')[0]).toEqual({
      connection_id: 'oidc-connection-test-1',
      test_id: '_test-1',
    });
  });

  it('shows no test button to a member who may not change SSO', async () => {
    renderSso({ ...MEMBER_PERMISSIONS, 'stytch.sso': { get: true } });
    expect(await screen.findByText('Entra')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage Entra' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test connection' })).toBeNull();
  });
});
