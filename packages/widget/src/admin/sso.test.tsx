// The SSO section: connections with our side's values to copy, and new SAML (from pasted IdP
// metadata) and OIDC connections.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import { apiError } from '@gatehouse/testing';
import { AdminSso } from './portal.js';
import { renderAdmin } from '../test/render-admin.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const saml = {
  connection_id: 'saml-connection-test-1',
  display_name: 'Okta',
  status: 'active',
  audience_uri: 'https://auth.acme.test/v1/b2b/sso/saml/sp/saml-connection-test-1',
  acs_url: 'https://auth.acme.test/v1/b2b/sso/saml/acs/saml-connection-test-1',
  sp_metadata_url: 'https://auth.acme.test/v1/b2b/sso/saml/metadata/saml-connection-test-1',
} as SamlConnection;
const oidc = {
  connection_id: 'oidc-connection-test-1',
  display_name: 'Entra',
  status: 'pending',
  redirect_url: 'https://auth.acme.test/v1/b2b/sso/oidc/callback',
} as OidcConnection;
const ack = { request_id: 'r', status_code: 200 };

function renderSso() {
  return renderAdmin((props) => <AdminSso {...props} />, {
    prepare(admin) {
      admin.answer('sso.getConnections', async () => ({
        ...ack,
        saml_connections: [saml],
        oidc_connections: [oidc],
        external_connections: [],
      }));
    },
  });
}

describe('the SSO section', () => {
  it("lists connections with our side's values and copies them", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { language: 'en-US', clipboard: { writeText } });
    renderSso();
    const okta = (await screen.findByRole('heading', { name: /Okta/ })).closest('li')!;
    expect(within(okta).getByText('SAML')).toBeTruthy();
    expect(within(okta).getByLabelText<HTMLInputElement>('ACS URL').value).toBe(saml.acs_url);
    expect(within(okta).getByLabelText<HTMLInputElement>('SP entity ID').value).toBe(
      saml.audience_uri,
    );
    fireEvent.click(within(okta).getByRole('button', { name: 'Copy: SP metadata URL' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(saml.sp_metadata_url));
    expect(await within(okta).findByText('Copied')).toBeTruthy();
    const entra = screen.getByRole('heading', { name: /Entra/ }).closest('li')!;
    expect(within(entra).getByText('Pending')).toBeTruthy();
    expect(within(entra).getByLabelText<HTMLInputElement>('Redirect URL').value).toBe(
      oidc.redirect_url,
    );
  });

  it('creates a SAML connection from pasted metadata', async () => {
    const { admin } = renderSso();
    const form = (await screen.findByRole('heading', { name: 'New SAML connection' })).closest(
      'form',
    )!;
    fireEvent.input(within(form).getByLabelText('Display name'), { target: { value: 'Okta 2' } });
    fireEvent.input(within(form).getByLabelText('IdP metadata XML'), {
      target: { value: '<EntityDescriptor/>' },
    });
    const created = { ...saml, connection_id: 'saml-connection-test-2', display_name: 'Okta 2' };
    admin.answer('sso.saml.createConnection', async () => ({ ...ack, connection: created }));
    admin.answer('sso.saml.updateConnectionByMetadata', async () => ({
      ...ack,
      connection: created,
    }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Connection Okta 2 created',
      ),
    );
    // Off until an admin turns it on after a test.
    expect(admin.callsTo('sso.saml.createConnection')).toEqual([
      { display_name: 'Okta 2', sign_in_enabled: false },
    ]);
    expect(admin.callsTo('sso.saml.updateConnectionByMetadata')).toEqual([
      { connection_id: 'saml-connection-test-2', metadata_xml: '<EntityDescriptor/>' },
    ]);
  });

  it('creates a SAML connection from an uploaded metadata file, shown before it is sent', async () => {
    const { admin } = renderSso();
    const form = (await screen.findByRole('heading', { name: 'New SAML connection' })).closest(
      'form',
    )!;
    fireEvent.input(within(form).getByLabelText('Display name'), { target: { value: 'Okta 3' } });
    const file = new File(['<EntityDescriptor entityID="urn:okta"/>'], 'okta.xml', {
      type: 'application/xml',
    });
    fireEvent.change(within(form).getByLabelText('Or upload the metadata file'), {
      target: { files: [file] },
    });
    const xml = within(form).getByLabelText<HTMLTextAreaElement>('IdP metadata XML');
    await waitFor(() => expect(xml.value).toBe('<EntityDescriptor entityID="urn:okta"/>'));
    const created = { ...saml, connection_id: 'saml-connection-test-3', display_name: 'Okta 3' };
    admin.answer('sso.saml.createConnection', async () => ({ ...ack, connection: created }));
    admin.answer('sso.saml.updateConnectionByMetadata', async () => ({
      ...ack,
      connection: created,
    }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(admin.callsTo('sso.saml.updateConnectionByMetadata')).toEqual([
        {
          connection_id: 'saml-connection-test-3',
          metadata_xml: '<EntityDescriptor entityID="urn:okta"/>',
        },
      ]),
    );
  });

  it('creates a SAML connection from the IdP fields typed in', async () => {
    const { admin } = renderSso();
    const form = (await screen.findByRole('heading', { name: 'New SAML connection' })).closest(
      'form',
    )!;
    fireEvent.input(within(form).getByLabelText('Display name'), { target: { value: 'Okta 4' } });
    fireEvent.click(within(form).getByLabelText('Enter its fields'));
    expect(within(form).queryByLabelText('IdP metadata XML')).toBeNull();
    fireEvent.input(within(form).getByLabelText('IdP entity ID (issuer)'), {
      target: { value: ' https://idp.example.test/entity ' },
    });
    fireEvent.input(within(form).getByLabelText('IdP sign-in URL (SSO URL)'), {
      target: { value: 'https://idp.example.test/sso' },
    });
    fireEvent.input(within(form).getByLabelText('IdP signing certificate (PEM)'), {
      target: { value: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' },
    });
    const created = { ...saml, connection_id: 'saml-connection-test-4', display_name: 'Okta 4' };
    admin.answer('sso.saml.createConnection', async () => ({ ...ack, connection: created }));
    admin.answer('sso.saml.updateConnection', async () => ({ ...ack, connection: created }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Connection Okta 4 created',
      ),
    );
    expect(admin.callsTo('sso.saml.updateConnection')).toEqual([
      {
        connection_id: 'saml-connection-test-4',
        idp_entity_id: 'https://idp.example.test/entity',
        idp_sso_url: 'https://idp.example.test/sso',
        x509_certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      },
    ]);
    expect(admin.callsTo('sso.saml.updateConnectionByMetadata')).toEqual([]);
  });

  it("creates an OIDC connection and shows the server's refusal in an alert", async () => {
    const { admin } = renderSso();
    const form = (await screen.findByRole('heading', { name: 'New OIDC connection' })).closest(
      'form',
    )!;
    fireEvent.input(within(form).getByLabelText('Display name'), { target: { value: 'Entra' } });
    fireEvent.input(within(form).getByLabelText('Issuer URL'), {
      target: { value: 'https://login.example.test' },
    });
    fireEvent.input(within(form).getByLabelText('Client ID'), { target: { value: 'abc' } });
    fireEvent.input(within(form).getByLabelText('Client secret'), { target: { value: 's3' } });
    admin.answer('sso.oidc.createConnection', () =>
      Promise.reject(apiError('invalid_request', 'The issuer has no discovery document.')),
    );
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The issuer has no discovery document.',
    );
    expect(admin.callsTo('sso.oidc.createConnection')).toEqual([
      {
        display_name: 'Entra',
        issuer: 'https://login.example.test',
        client_id: 'abc',
        client_secret: 's3',
        sign_in_enabled: false,
      },
    ]);
  });
});
