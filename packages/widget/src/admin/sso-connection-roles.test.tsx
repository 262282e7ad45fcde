// A SAML connection's roles for everyone who signs in through it, in the SSO section's
// "Attributes and roles" form: only roles the admin holds offered, a saved role they do not hold
// kept as it is, the list saved with the mapping; in Spanish too.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SamlConnection } from '@gatehouse/protocol';
import { organization } from '@gatehouse/testing';
import { AdminSso } from './portal.js';
import { renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const ack = { request_id: 'r', status_code: 200 };
const saml = {
  connection_id: 'saml-connection-test-1',
  display_name: 'Okta',
  status: 'pending',
  attribute_mapping: {
    email: 'email',
    first_name: 'firstName',
    last_name: 'lastName',
    groups: 'groups',
  },
  saml_group_implicit_role_assignments: [],
  saml_connection_implicit_role_assignments: [{ role_id: 'billing' }],
  verification_certificates: [],
  updated_at: '2026-01-01T00:00:00.000Z',
} as unknown as SamlConnection;

const LEGEND = 'Roles for everyone who signs in through this connection';

function renderSso(locale = 'en') {
  return renderAdmin((props) => <AdminSso {...props} locale={locale} />, {
    prepare(client) {
      client.answer('sso.getConnections', async () => ({
        ...ack,
        saml_connections: [saml],
        oidc_connections: [],
        external_connections: [],
      }));
      client.answer('organization.get', async () => ({ ...ack, organization: organization() }));
    },
  });
}

describe("a SAML connection's roles for everyone", () => {
  it('offers the roles the admin holds, keeps a saved one they do not hold, and saves the list', async () => {
    const { admin } = renderSso();
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Okta' }));
    const form = screen.getByRole('form', { name: 'Attributes and roles' });
    const group = within(form).getByRole('group', { name: LEGEND });
    const boxes = within(group).getAllByRole<HTMLInputElement>('checkbox');
    expect(boxes.map((b) => [b.parentElement?.textContent, b.checked, b.disabled])).toEqual([
      ['admin', false, false],
      ['billing', true, true],
    ]);
    fireEvent.click(within(group).getByRole('checkbox', { name: 'admin' }));
    admin.answer('sso.saml.updateConnection', async () => ({ ...ack, connection: saml }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.updateConnection')).toEqual([
        expect.objectContaining({
          connection_id: saml.connection_id,
          saml_connection_implicit_role_assignments: [{ role_id: 'billing' }, { role_id: 'admin' }],
        }),
      ]),
    );
  });

  it('speaks Spanish', async () => {
    renderSso('es');
    fireEvent.click(await screen.findByRole('button', { name: /Okta/ }));
    const group = await screen.findByRole('group', {
      name: 'Roles para todos los que inician sesión con esta conexión',
    });
    expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'billing' }).checked).toBe(
      true,
    );
  });
});
