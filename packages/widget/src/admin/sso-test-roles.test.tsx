// The sentence under a passed SSO test sign-in, in English and Spanish: no role at all (neither
// from the person's groups nor from the connection), only the roles the connection gives
// everyone, or roles that came from the person's groups.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
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
  sign_in_enabled: true,
  audience_uri: 'https://auth.acme.test/sp',
  acs_url: 'https://auth.acme.test/acs',
  sp_metadata_url: 'https://auth.acme.test/metadata',
  idp_entity_id: 'https://idp.acme.test',
  attribute_mapping: { email: 'email', first_name: '', last_name: '', groups: 'groups' },
  saml_group_implicit_role_assignments: [{ group: 'it', role_id: 'admin' }],
  saml_connection_implicit_role_assignments: [{ role_id: 'member' }, { role_id: 'viewer' }],
  verification_certificates: [],
  updated_at: '2026-01-01T00:00:00.000Z',
} as unknown as SamlConnection;

const passed = (roles: string[]): SsoConnectionTest => ({
  test_id: '_test-1',
  connection_id: saml.connection_id,
  status: 'passed',
  started_at: '',
  expires_at: '',
  finished_at: '',
  checks: [{ check: 'signature', status: 'passed', message: 'Signed.' }],
  error: null,
  name_id: 'ada@acme.test',
  attributes: { email: ['ada@acme.test'] },
  mapped: { email: 'ada@acme.test', first_name: '', last_name: '', groups: [] },
  roles,
});

/** Runs a test sign-in of the connection whose report gives `roles`; the report's panel. */
async function reportOf(roles: string[], locale = 'en') {
  vi.stubGlobal(
    'open',
    vi.fn(() => ({ location: { href: '' }, close: vi.fn() })),
  );
  renderAdmin((props) => <AdminSso {...props} locale={locale} />, {
    prepare(admin) {
      admin.answer('sso.getConnections', async () => ({
        ...ack,
        saml_connections: [saml],
        oidc_connections: [],
        external_connections: [],
      }));
      admin.answer('organization.get', async () => ({ ...ack, organization: organization() }));
      admin.answer('sso.saml.testConnection', async () => ({
        ...ack,
        test: { ...passed(roles), status: 'pending' },
        idp_url: 'https://idp.acme.test/sso?SAMLRequest=x',
      }));
      admin.answer('sso.saml.getTest', async () => ({ ...ack, test: passed(roles) }));
    },
  });
  const es = locale === 'es';
  fireEvent.click(
    await screen.findByRole('button', { name: es ? 'Administrar Okta' : 'Manage Okta' }),
  );
  const panel = document.getElementById(
    screen
      .getByRole('button', { name: es ? 'Cerrar Okta' : 'Close Okta' })
      .getAttribute('aria-controls')!,
  )!;
  fireEvent.click(
    within(panel).getByRole('button', { name: es ? 'Probar la conexión' : 'Test connection' }),
  );
  await within(panel).findByText(
    es ? 'La prueba salió bien' : 'The test passed',
    {},
    { timeout: 5_000 },
  );
  return panel;
}

describe("a passed SSO test's roles", () => {
  it('says there are none, neither from the groups nor from the connection', async () => {
    const panel = await reportOf([]);
    expect(
      within(panel).getByText(
        'This person would get no role, neither from their groups nor from the connection.',
      ),
    ).toBeTruthy();
  });

  it('says when they are only the roles the connection gives everyone', async () => {
    const panel = await reportOf(['member', 'viewer']);
    expect(
      within(panel).getByText(
        'This person would get only the roles the connection gives everyone who signs in through it: member, viewer.',
      ),
    ).toBeTruthy();
  });

  it('lists them plainly when some came from the groups', async () => {
    const panel = await reportOf(['admin', 'member']);
    expect(within(panel).getByText('This person would get the roles admin, member.')).toBeTruthy();
  });

  it('says both cases in Spanish', async () => {
    const none = await reportOf([], 'es');
    expect(
      within(none).getByText(
        'Esta persona no recibiría ningún rol, ni por sus grupos ni por la conexión.',
      ),
    ).toBeTruthy();
    cleanup();
    const own = await reportOf(['viewer'], 'es');
    expect(
      within(own).getByText(
        'Esta persona solo recibiría los roles que la conexión da a todos los que inician sesión con ella: viewer.',
      ),
    ).toBeTruthy();
  });
});
