// Turning a connection's sign-ins on and off in the SSO section: a new connection is made off, an
// off one says whether a test passed since the page was opened and turns on over the loaded
// version, an on one turns off; in Spanish too.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SamlConnection, SsoConnectionTest } from '@gatehouse/protocol';
import { organization } from '@gatehouse/testing';
import { AdminSso } from './portal.js';
import { renderAdmin } from '../test/render-admin.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ack = { request_id: 'r', status_code: 200 };
const saml = {
  connection_id: 'saml-connection-test-1',
  display_name: 'Okta',
  status: 'active',
  sign_in_enabled: false,
  attribute_mapping: {
    email: 'email',
    first_name: 'firstName',
    last_name: 'lastName',
    groups: 'groups',
  },
  saml_group_implicit_role_assignments: [],
  saml_connection_implicit_role_assignments: [],
  verification_certificates: [],
  updated_at: '2026-01-01T00:00:00.000Z',
} as unknown as SamlConnection;

const passed: SsoConnectionTest = {
  test_id: '_test-1',
  connection_id: saml.connection_id,
  status: 'passed',
  started_at: '',
  expires_at: '',
  finished_at: '',
  checks: [],
  error: null,
  name_id: 'ada@acme.test',
  attributes: {},
  mapped: { email: 'ada@acme.test', first_name: '', last_name: '', groups: [] },
  roles: [],
};

function renderSso(connection: SamlConnection, locale = 'en') {
  return renderAdmin((props) => <AdminSso {...props} locale={locale} />, {
    prepare(admin) {
      admin.answer('sso.getConnections', async () => ({
        ...ack,
        saml_connections: [connection],
        oidc_connections: [],
        external_connections: [],
      }));
      admin.answer('organization.get', async () => ({ ...ack, organization: organization() }));
    },
  });
}

async function switchGroup(manage: string, heading: string) {
  fireEvent.click(await screen.findByRole('button', { name: manage }));
  return screen.getByRole('group', { name: heading });
}

describe("a connection's sign-in switch", () => {
  it('shows an off connection as off, says no test passed, then that one did, and turns it on', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => ({ location: { href: '' }, close: vi.fn() })),
    );
    const { admin } = renderSso(saml);
    const title = await screen.findByRole('heading', { name: /^Okta/ });
    expect(within(title).getByText('Off')).toBeTruthy();
    const group = await switchGroup('Manage Okta', 'Sign-in through this connection');
    expect(within(group).getByText(/No test has passed since you opened this page/)).toBeTruthy();

    admin.answer('sso.saml.testConnection', async () => ({
      ...ack,
      test: { ...passed, status: 'pending' },
      idp_url: 'https://idp.acme.test/sso',
    }));
    admin.answer('sso.saml.getTest', async () => ({ ...ack, test: passed }));
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await within(group).findByText(
      /A test passed since you opened this page/,
      {},
      { timeout: 5_000 },
    );

    admin.answer('sso.saml.updateConnection', async () => ({
      ...ack,
      connection: { ...saml, sign_in_enabled: true },
    }));
    fireEvent.click(within(group).getByRole('button', { name: 'Turn on' }));
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.updateConnection')).toEqual([
        {
          connection_id: saml.connection_id,
          sign_in_enabled: true,
          updated_at: saml.updated_at,
        },
      ]),
    );
  });

  it('turns an on connection off, in Spanish', async () => {
    const { admin } = renderSso({ ...saml, sign_in_enabled: true }, 'es');
    const title = await screen.findByRole('heading', { name: /^Okta/ });
    expect(within(title).getByText('Activado')).toBeTruthy();
    const group = await switchGroup('Administrar Okta', 'Inicio de sesión con esta conexión');
    admin.answer('sso.saml.updateConnection', async () => ({ ...ack, connection: saml }));
    fireEvent.click(within(group).getByRole('button', { name: 'Desactivar' }));
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.updateConnection')[0]).toMatchObject({
        sign_in_enabled: false,
      }),
    );
  });
});
