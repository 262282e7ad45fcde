// Managing a SAML connection in the SSO section: the test sign-in in a popup and its report, the
// attribute and group mapping with its checks, certificate rotation, metadata by URL, and the
// organization's SSO rules.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SamlConnection, SsoConnectionTest } from '@gatehouse/protocol';
import { apiError, organization } from '@gatehouse/testing';
import { AdminSso } from './portal.js';
import { mappingProblems } from './sso-mapping-check.js';
import { renderAdmin, MEMBER_PERMISSIONS } from '../test/render-admin.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ack = { request_id: 'r', status_code: 200 };
const soon = new Date(Date.now() + 10 * 86_400_000).toISOString();
const later = new Date(Date.now() + 400 * 86_400_000).toISOString();
const saml: SamlConnection = {
  connection_id: 'saml-connection-test-1',
  display_name: 'Okta',
  status: 'active',
  sign_in_enabled: true,
  audience_uri: 'https://auth.acme.test/sp',
  acs_url: 'https://auth.acme.test/acs',
  sp_metadata_url: 'https://auth.acme.test/metadata',
  idp_entity_id: 'https://idp.acme.test',
  attribute_mapping: {
    email: 'email',
    first_name: 'firstName',
    last_name: 'lastName',
    groups: 'groups',
  },
  saml_group_implicit_role_assignments: [],
  saml_connection_implicit_role_assignments: [],
  verification_certificates: [
    {
      certificate_id: 'cert-old',
      certificate: '',
      issuer: 'CN=Old',
      created_at: '',
      expires_at: soon,
    },
    {
      certificate_id: 'cert-new',
      certificate: '',
      issuer: 'CN=New',
      created_at: '',
      expires_at: later,
    },
  ],
  updated_at: '2026-01-01T00:00:00.000Z',
} as unknown as SamlConnection;

const pending: SsoConnectionTest = {
  test_id: '_test-1',
  connection_id: saml.connection_id,
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
        saml_connections: [saml],
        oidc_connections: [],
        external_connections: [],
      }));
      admin.answer('organization.get', async () => ({ ...ack, organization: organization() }));
    },
  });
}

async function openPanel() {
  fireEvent.click(await screen.findByRole('button', { name: 'Manage Okta' }));
  return document.getElementById(
    screen.getByRole('button', { name: 'Close Okta' }).getAttribute('aria-controls')!,
  )!;
}

describe('managing a SAML connection', () => {
  it('tests it in a popup and reports each check', async () => {
    const popup = { location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => popup);
    vi.stubGlobal('open', open);
    const { admin } = renderSso();
    const panel = await openPanel();
    admin.answer('sso.saml.testConnection', async () => ({
      ...ack,
      test: pending,
      idp_url: 'https://idp.acme.test/sso?SAMLRequest=x',
    }));
    let polls = 0;
    admin.answer('sso.saml.getTest', async () => {
      polls += 1;
      if (polls === 1) return { ...ack, test: pending };
      return {
        ...ack,
        test: {
          ...pending,
          status: 'passed',
          checks: [
            { check: 'signature', status: 'passed', message: 'Signed.' },
            {
              check: 'attributes',
              status: 'warning',
              message: 'Mapped but not received: lastName.',
            },
          ],
          attributes: { email: ['ada@acme.test'], groups: ['it'] },
          roles: ['admin'],
        },
      };
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Test connection' }));
    expect(open).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(popup.location.href).toBe('https://idp.acme.test/sso?SAMLRequest=x'),
    );
    expect(await within(panel).findByText(/Waiting for the identity provider/)).toBeTruthy();
    const verdict = await within(panel).findByText('The test passed', {}, { timeout: 5_000 });
    expect(popup.close).toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(verdict.parentElement));
    expect(within(panel).getByText('Mapped but not received: lastName.')).toBeTruthy();
    expect(within(panel).getByText('Warning')).toBeTruthy();
    const table = within(panel).getByRole('table', { name: 'Attributes received' });
    expect(within(table).getByRole('rowheader', { name: 'groups' })).toBeTruthy();
    expect(within(panel).getByText('This person would get the roles admin.')).toBeTruthy();
    expect(admin.callsTo('sso.saml.getTest')[0]).toEqual({
      connection_id: saml.connection_id,
      test_id: '_test-1',
    });
  });

  it('offers a link to the IdP when the browser blocks the popup', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    const { admin } = renderSso();
    const panel = await openPanel();
    admin.answer('sso.saml.testConnection', async () => ({
      ...ack,
      test: pending,
      idp_url: 'https://idp.acme.test/sso?SAMLRequest=y',
    }));
    admin.answer('sso.saml.getTest', async () => ({ ...ack, test: pending }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Test connection' }));
    const link = await within(panel).findByRole('link', {
      name: 'Open the identity provider’s sign-in page',
    });
    expect(link.getAttribute('href')).toBe('https://idp.acme.test/sso?SAMLRequest=y');
    expect(link.getAttribute('target')).toBe('_blank');
    fireEvent.click(within(panel).getByRole('button', { name: 'Stop waiting' }));
    expect(within(panel).getByRole('button', { name: 'Test connection' })).toBeTruthy();
  });

  it("shows the server's refusal to start a test and closes the popup", async () => {
    const popup = { location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => popup),
    );
    const { admin } = renderSso();
    const panel = await openPanel();
    admin.answer('sso.saml.testConnection', () =>
      Promise.reject(
        apiError('sso_connection_inactive', 'This SSO connection is not fully configured yet.'),
      ),
    );
    fireEvent.click(within(panel).getByRole('button', { name: 'Test connection' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'This SSO connection is not fully configured yet.',
    );
    expect(popup.close).toHaveBeenCalled();
  });

  it('says so when another admin changed the connection since the panel loaded it', async () => {
    const { admin } = renderSso();
    const panel = await openPanel();
    const form = within(panel).getByRole('form', { name: 'Attributes and roles' });
    fireEvent.input(within(form).getByLabelText('E-mail attribute'), {
      target: { value: 'mail' },
    });
    const stale = 'The connection was changed by someone else since it was loaded.';
    admin.answer('sso.saml.updateConnection', () =>
      Promise.reject(apiError('stale_update', stale)),
    );
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(stale);
    expect(admin.callsTo('sso.saml.updateConnection')[0]).toMatchObject({
      updated_at: saml.updated_at,
    });
  });

  it('names each mistake of the mapping beside its field, then saves', async () => {
    const { admin } = renderSso();
    const panel = await openPanel();
    const form = within(panel).getByRole('form', { name: 'Attributes and roles' });
    fireEvent.input(within(form).getByLabelText('E-mail attribute'), { target: { value: ' ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a group rule' }));
    fireEvent.submit(form);
    const email = within(form).getByLabelText('E-mail attribute');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(
      within(form).getByText('Name the attribute that carries the e-mail address.'),
    ).toBeTruthy();
    expect(within(form).getByText('Name the IdP group.')).toBeTruthy();
    expect(within(form).getByText('Choose the role this group gives.')).toBeTruthy();
    expect(admin.callsTo('sso.saml.updateConnection')).toEqual([]);

    fireEvent.input(email, { target: { value: 'mail' } });
    fireEvent.input(within(form).getByLabelText('Group of rule 1'), { target: { value: ' it ' } });
    const role = within(form).getByLabelText<HTMLSelectElement>('Role of rule 1');
    // Only roles the member holds are offered.
    expect([...role.options].map((o) => o.value)).toEqual(['', 'admin']);
    fireEvent.change(role, { target: { value: 'admin' } });
    admin.answer('sso.saml.updateConnection', async () => ({ ...ack, connection: saml }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.updateConnection')).toEqual([
        {
          connection_id: saml.connection_id,
          // What the panel loaded: a change since is refused rather than undone.
          updated_at: saml.updated_at,
          attribute_mapping: {
            email: 'mail',
            first_name: 'firstName',
            last_name: 'lastName',
            groups: 'groups',
          },
          saml_group_implicit_role_assignments: [{ group: 'it', role_id: 'admin' }],
          saml_connection_implicit_role_assignments: [],
        },
      ]),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Attributes and roles saved',
      ),
    );
  });

  it('shows certificate expiry, adds a second one and retires the old one', async () => {
    const { admin } = renderSso();
    const panel = await openPanel();
    expect(within(panel).getByText(/Expires .*, in (9|10) days: add the new one/)).toBeTruthy();
    admin.answer('sso.saml.deleteVerificationCertificate', async () => ({
      ...ack,
      connection: saml,
    }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Retire certificate 1' }));
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.deleteVerificationCertificate')).toEqual([
        { connection_id: saml.connection_id, certificate_id: 'cert-old' },
      ]),
    );
    admin.answer('sso.saml.updateConnection', async () => ({ ...ack, connection: saml }));
    fireEvent.input(within(panel).getByLabelText('New certificate (PEM)'), {
      target: { value: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add certificate' }));
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.updateConnection')).toEqual([
        {
          connection_id: saml.connection_id,
          x509_certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
        },
      ]),
    );
  });

  it('sets the IdP side from a metadata URL', async () => {
    const { admin } = renderSso();
    const panel = await openPanel();
    const form = within(panel).getByRole('form', { name: 'Identity provider' });
    fireEvent.click(within(form).getByLabelText('Give its URL'));
    fireEvent.input(within(form).getByLabelText('IdP metadata URL'), {
      target: { value: 'https://idp.acme.test/metadata' },
    });
    admin.answer('sso.saml.updateConnectionByMetadata', () =>
      Promise.reject(
        apiError('invalid_saml_metadata', 'The metadata_url points into a private network.'),
      ),
    );
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The metadata_url points into a private network.',
    );
    expect(admin.callsTo('sso.saml.updateConnectionByMetadata')).toEqual([
      { connection_id: saml.connection_id, metadata_url: 'https://idp.acme.test/metadata' },
    ]);
  });

  it('offers no management to a member who may only read connections', async () => {
    renderSso({ ...MEMBER_PERMISSIONS, 'stytch.sso': { get: true } });
    await screen.findByRole('heading', { name: /Okta/ });
    expect(screen.queryByRole('button', { name: 'Manage Okta' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'SSO rules' })).toBeNull();
  });
});

describe("the organization's SSO rules", () => {
  it('sets the default connection and restricts JIT to chosen connections', async () => {
    const { admin } = renderSso();
    const form = (await screen.findByRole('heading', { name: 'SSO rules' })).closest('form')!;
    fireEvent.change(within(form).getByLabelText('Default connection'), {
      target: { value: saml.connection_id },
    });
    fireEvent.click(within(form).getByLabelText('Only the connections chosen below'));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Okta' }));
    admin.answer('organization.update', async () => ({ ...ack, organization: organization() }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(admin.callsTo('organization.update')).toEqual([
        {
          updated_at: organization().updated_at,
          sso_default_connection_id: saml.connection_id,
          sso_jit_provisioning: 'RESTRICTED',
          sso_jit_provisioning_allowed_connections: [saml.connection_id],
        },
      ]),
    );
  });
});

describe('mappingProblems', () => {
  const mapping = saml.attribute_mapping;
  it('accepts a complete mapping and distinct rules', () => {
    expect(mappingProblems(mapping, [{ group: 'it', role_id: 'admin' }])).toBeNull();
  });
  it('refuses a duplicate rule and rules without a groups attribute', () => {
    const rules = [
      { group: 'it', role_id: 'admin' },
      { group: 'it ', role_id: 'admin' },
    ];
    expect(mappingProblems({ ...mapping, groups: '' }, rules)).toEqual({
      fields: { groups: 'sso.mapping.groupsNeeded' },
      rules: [{}, { group: 'sso.mapping.duplicate' }],
    });
  });
});
