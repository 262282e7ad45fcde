// An OIDC connection's scopes, claim mapping and group roles in the SSO section: the same form as
// SAML's, in the words of claims; its checks; only roles the admin holds offered; the server's
// refusal shown; no panel for a member who may only read connections.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OidcConnection } from '@gatehouse/protocol';
import { apiError, organization } from '@gatehouse/testing';
import { AdminSso } from './portal.js';
import { mappingProblems } from './sso-mapping-check.js';
import { renderAdmin, MEMBER_PERMISSIONS } from '../test/render-admin.js';

afterEach(cleanup);

const ack = { request_id: 'r', status_code: 200 };
const oidc = {
  connection_id: 'oidc-connection-test-1',
  display_name: 'Entra',
  status: 'pending',
  redirect_url: 'https://auth.acme.test/v1/sso/oidc/callback',
  custom_scopes: '',
  attribute_mapping: {
    email: 'email',
    first_name: 'given_name',
    last_name: 'family_name',
    groups: 'groups',
  },
  oidc_group_implicit_role_assignments: [{ group: 'finance', role_id: 'billing' }],
  updated_at: '2026-01-01T00:00:00.000Z',
} as unknown as OidcConnection;

function renderSso(options: { permissions?: Record<string, Record<string, boolean>> } = {}) {
  return renderAdmin((props) => <AdminSso {...props} />, {
    ...options,
    prepare(admin) {
      admin.answer('sso.getConnections', async () => ({
        ...ack,
        saml_connections: [],
        oidc_connections: [oidc],
        external_connections: [],
      }));
      admin.answer('organization.get', async () => ({ ...ack, organization: organization() }));
    },
  });
}

async function openForm() {
  fireEvent.click(await screen.findByRole('button', { name: 'Manage Entra' }));
  return screen.getByRole('form', { name: 'Attributes and roles' });
}

describe("an OIDC connection's mapping", () => {
  it('names claims, offers only roles the admin holds, and saves scopes, claims and rules', async () => {
    const { admin } = renderSso();
    const form = await openForm();
    expect(
      within(form).getByText(/Which claim of the ID token carries each member field/),
    ).toBeTruthy();
    // A pending connection has no test sign-in yet, but its mapping may be set.
    expect(screen.queryByRole('button', { name: 'Test connection' })).toBeNull();
    fireEvent.input(within(form).getByLabelText('Scopes'), {
      target: { value: ' openid email profile groups ' },
    });
    fireEvent.input(within(form).getByLabelText('Groups claim'), { target: { value: 'roles' } });
    fireEvent.input(within(form).getByLabelText('First name claim'), {
      target: { value: 'givenName' },
    });
    // The saved rule for billing, a role Ada does not hold, shows its role, which she cannot pick.
    const held = within(form).getByLabelText<HTMLSelectElement>('Role of rule 1');
    expect(held.value).toBe('billing');
    expect(held.selectedOptions[0]?.disabled).toBe(true);
    fireEvent.click(within(form).getByRole('button', { name: 'Add a group rule' }));
    fireEvent.input(within(form).getByLabelText('Group of rule 2'), { target: { value: 'it' } });
    const role = within(form).getByLabelText<HTMLSelectElement>('Role of rule 2');
    // Ada holds admin, not billing: billing is not offered.
    expect([...role.options].map((o) => o.value)).toEqual(['', 'admin']);
    fireEvent.change(role, { target: { value: 'admin' } });
    admin.answer('sso.oidc.updateConnection', async () => ({ ...ack, connection: oidc }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(admin.callsTo('sso.oidc.updateConnection')).toEqual([
        {
          connection_id: oidc.connection_id,
          updated_at: oidc.updated_at,
          custom_scopes: 'openid email profile groups',
          attribute_mapping: {
            email: 'email',
            first_name: 'givenName',
            last_name: 'family_name',
            groups: 'roles',
          },
          // The rule for billing, which Ada does not hold, is sent back unchanged.
          oidc_group_implicit_role_assignments: [
            { group: 'finance', role_id: 'billing' },
            { group: 'it', role_id: 'admin' },
          ],
        },
      ]),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Attributes and roles saved',
      ),
    );
    expect(admin.callsTo('sso.saml.updateConnection')).toEqual([]);
  });

  it('names each mistake beside its field and sends nothing', async () => {
    const { admin } = renderSso();
    const form = await openForm();
    const scopes = within(form).getByLabelText('Scopes');
    fireEvent.input(scopes, { target: { value: 'openid "groups"' } });
    fireEvent.input(within(form).getByLabelText('E-mail claim'), { target: { value: ' ' } });
    fireEvent.input(within(form).getByLabelText('Groups claim'), { target: { value: '' } });
    fireEvent.submit(form);
    expect(scopes.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(scopes);
    expect(
      within(form).getByText('Use scope names separated by spaces, without quotes or backslashes.'),
    ).toBeTruthy();
    expect(within(form).getByText('Name the claim that carries the e-mail address.')).toBeTruthy();
    expect(within(form).getByText('Name the groups claim for group rules to apply.')).toBeTruthy();
    expect(admin.callsTo('sso.oidc.updateConnection')).toEqual([]);
  });

  it("shows the server's refusal of a rule in an alert", async () => {
    const { admin } = renderSso();
    const form = await openForm();
    admin.answer('sso.oidc.updateConnection', () =>
      Promise.reject(
        apiError(
          'unauthorized_action',
          'You may change only rules that give roles you hold yourself; you do not hold billing.',
        ),
      ),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Remove rule 1' }));
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'You may change only rules that give roles you hold yourself; you do not hold billing.',
    );
  });

  it('offers no panel to a member who may only read connections', async () => {
    renderSso({ permissions: { ...MEMBER_PERMISSIONS, 'stytch.sso': { get: true } } });
    expect(await screen.findByText('Entra')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage Entra' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Attributes and roles' })).toBeNull();
  });
});

describe('mappingProblems of an OIDC draft', () => {
  const mapping = oidc.attribute_mapping;
  it('accepts the default scopes and custom ones', () => {
    expect(mappingProblems(mapping, [], { scopes: '' })).toBeNull();
    expect(mappingProblems(mapping, [], { scopes: 'openid email groups' })).toBeNull();
  });
  it('refuses scopes past 1024 characters', () => {
    expect(mappingProblems(mapping, [], { scopes: 'a'.repeat(1025) })?.fields).toEqual({
      scopes: 'sso.mapping.scopesInvalid',
    });
  });
});
