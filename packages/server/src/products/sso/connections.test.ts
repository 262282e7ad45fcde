// Managing SSO connections over HTTP: the management API, the SDK's member-session endpoints, and
// the organization's SSO settings; with real IdPs for metadata and OIDC discovery.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization, SamlConnection } from '@gatehouse/protocol';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import {
  selfSignedKeyPair,
  startOidcIdp,
  startSamlIdp,
  type OidcIdp,
  type SamlIdp,
} from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let saml: SamlIdp;
let oidc: OidcIdp;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  [h, saml, oidc] = await Promise.all([
    startHarness({ listen: true }),
    startSamlIdp(),
    startOidcIdp(),
  ]);
  await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'boss@acme.test',
    roles: ['admin'],
  });
  adminToken = (await h.login('boss@acme.test')).session_token;
  memberToken = (await h.login('ada@acme.test')).session_token;
});

afterAll(async () => {
  await Promise.all([h?.close(), saml?.close(), oidc?.close()]);
});

const org = () => ({ organization_id: h.org.organization_id });

async function organization(id = h.org.organization_id): Promise<Organization> {
  return expectOk(await h.call(ENDPOINTS.getOrganization, { params: { organization_id: id } }))
    .organization;
}

async function createSaml(body: RequestOf<typeof ENDPOINTS.ssoCreateSaml> = {}) {
  return expectOk(await h.call(ENDPOINTS.ssoCreateSaml, { params: org(), body })).connection;
}

describe('SAML connections (management API)', () => {
  let pending: SamlConnection;

  it('creates a pending connection that publishes our side', async () => {
    pending = await createSaml({ display_name: 'Okta' });
    expect(pending.status).toBe('pending');
    expect(pending.connection_id).toMatch(/^saml-connection-test-/);
    expect(pending.acs_url).toBe(`${h.url}/v1/sso/saml/acs/${pending.connection_id}`);
    expect(pending.audience_uri).toBe(`${h.url}/v1/sso/saml/metadata/${pending.connection_id}`);
    expect((await organization()).sso_active_connections).toEqual([]);
  });

  it('becomes active with the IdP side, and the organization offers it as its default', async () => {
    const res = await h.call(ENDPOINTS.ssoUpdateSaml, {
      params: { ...org(), connection_id: pending.connection_id },
      body: {
        idp_entity_id: saml.entityId,
        idp_sso_url: saml.ssoUrl,
        x509_certificate: saml.certificate,
        saml_group_implicit_role_assignments: [{ group: 'admins', role_id: 'admin' }],
      },
    });
    const active = expectOk(res).connection;
    expect(active.status).toBe('active');
    expect(active.verification_certificates).toHaveLength(1);
    expect(active.verification_certificates[0]?.issuer).toContain('Gatehouse test IdP');
    const after = await organization();
    expect(after.sso_active_connections).toEqual([
      { connection_id: pending.connection_id, display_name: 'Okta', identity_provider: 'generic' },
    ]);
    expect(after.sso_default_connection_id).toBe(pending.connection_id);
  });

  it('rotates certificates: a second one is added, the first removed, an unknown one is 404', async () => {
    const params = { ...org(), connection_id: pending.connection_id };
    const next = selfSignedKeyPair('Next signer').certificate;
    const both = expectOk(
      await h.call(ENDPOINTS.ssoUpdateSaml, { params, body: { x509_certificate: next } }),
    ).connection;
    expect(both.verification_certificates).toHaveLength(2);
    // The same certificate again is not stored twice.
    const again = expectOk(
      await h.call(ENDPOINTS.ssoUpdateSaml, { params, body: { x509_certificate: next } }),
    ).connection;
    expect(again.verification_certificates).toHaveLength(2);
    const [old] = both.verification_certificates;
    const rotated = expectOk(
      await h.call(ENDPOINTS.ssoDeleteSamlCertificate, {
        params: { ...params, certificate_id: old?.certificate_id ?? '' },
      }),
    ).connection;
    expect(rotated.verification_certificates.map((c) => c.certificate_id)).not.toContain(
      old?.certificate_id,
    );
    expect(rotated.status).toBe('active');
    const missing = await h.call(ENDPOINTS.ssoDeleteSamlCertificate, {
      params: { ...params, certificate_id: old?.certificate_id ?? '' },
    });
    expect(expectError(missing).error_type).toBe('certificate_not_found');
  });

  it('is set up from IdP metadata by URL and by XML', async () => {
    const byUrl = await createSaml({ display_name: 'From URL' });
    const fromUrl = expectOk(
      await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
        params: { ...org(), connection_id: byUrl.connection_id },
        body: { metadata_url: saml.metadataUrl },
      }),
    ).connection;
    expect(fromUrl).toMatchObject({
      status: 'active',
      idp_entity_id: saml.entityId,
      idp_sso_url: saml.ssoUrl,
    });
    expect(fromUrl.verification_certificates).toHaveLength(1);

    const byXml = await createSaml({ display_name: 'From XML' });
    const fromXml = expectOk(
      await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
        params: { ...org(), connection_id: byXml.connection_id },
        body: { metadata_xml: saml.metadataXml },
      }),
    ).connection;
    expect(fromXml.status).toBe('active');
    expect(fromXml.verification_certificates[0]?.certificate).toBe(
      fromUrl.verification_certificates[0]?.certificate,
    );
  });

  it('refuses bad certificates, metadata and roles with a 400, changing nothing', async () => {
    const c = await createSaml();
    const params = { ...org(), connection_id: c.connection_id };
    const bad = async (body: object, type: string) => {
      const res = await h.call(ENDPOINTS.ssoUpdateSaml, { params, body });
      expect(expectError(res).error_type).toBe(type);
    };
    await bad({ x509_certificate: 'not a certificate' }, 'invalid_certificate');
    await bad(
      { saml_group_implicit_role_assignments: [{ group: 'g', role_id: 'superuser' }] },
      'invalid_request',
    );
    await bad({ idp_sso_url: 'ftp://idp.example/sso' }, 'invalid_request');
    const metadata = async (body: object, type: string) => {
      const res = await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, { params, body });
      expect(expectError(res).error_type).toBe(type);
    };
    await metadata({ metadata_url: 'file:///etc/passwd' }, 'invalid_saml_metadata');
    await metadata({ metadata_xml: '<not-closed' }, 'invalid_saml_metadata');
    // The XML parser answers no document at all for an empty source.
    await metadata({ metadata_xml: '' }, 'invalid_saml_metadata');
    await metadata({ metadata_xml: ' \n' }, 'invalid_saml_metadata');
    await metadata({ metadata_xml: '<EntityDescriptor/>' }, 'invalid_saml_metadata');
    await metadata({}, 'invalid_request');
    await metadata(
      { metadata_url: saml.metadataUrl, metadata_xml: saml.metadataXml },
      'invalid_request',
    );
    const unchanged = expectOk(await h.call(ENDPOINTS.ssoGet, { params })).connection;
    expect(unchanged).toMatchObject({ status: 'pending', idp_entity_id: '', idp_sso_url: '' });
  });

  it('takes metadata up to 1 MB, inline or fetched, and refuses more or none', async () => {
    const c = await createSaml();
    const params = { ...org(), connection_id: c.connection_id };
    // Larger than the JSON body limit of other endpoints, well under the cap.
    const padded = `${saml.metadataXml}<!-- ${'x'.repeat(400_000)} -->`;
    const taken = await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
      params,
      body: { metadata_xml: padded },
    });
    expect(expectOk(taken).connection.status).toBe('active');
    const inline = await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
      params,
      body: { metadata_xml: `${padded}${'x'.repeat(1_000_000)}` },
    });
    expect(expectError(inline).error_type).toBe('invalid_request');

    // An IdP answering with too much, announced or streamed without a length.
    const huge = Buffer.alloc(2 * 1024 * 1024, 'x');
    const server = createServer((request, response) => {
      if (request.url === '/empty') {
        response.writeHead(200, { 'content-type': 'application/xml' }).end();
        return;
      }
      if (request.url === '/announced') {
        response.writeHead(200, { 'content-type': 'application/xml' }).end(huge);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.write(saml.metadataXml);
      response.write(huge.subarray(0, 1024 * 1024));
      response.end(huge.subarray(1024 * 1024));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/announced', '/streamed']) {
        const res = await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
          params,
          body: { metadata_url: `${base}${path}` },
        });
        const error = expectError(res);
        expect(error.error_type).toBe('invalid_saml_metadata');
        expect(error.error_message).toContain('larger than 1 MB');
      }
      // An IdP answering with nothing.
      const empty = await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
        params,
        body: { metadata_url: `${base}/empty` },
      });
      expect(expectError(empty).error_type).toBe('invalid_saml_metadata');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a certificate that has expired', async () => {
    const c = await createSaml();
    const params = { ...org(), connection_id: c.connection_id };
    // Valid for two days; three days on it has expired.
    const certificate = selfSignedKeyPair('Soon expired').certificate;
    h.clock.advance(3 * 24 * 60 * 60_000);
    try {
      const res = await h.call(ENDPOINTS.ssoUpdateSaml, {
        params,
        body: { x509_certificate: certificate },
      });
      const error = expectError(res);
      expect(error.error_type).toBe('invalid_certificate');
      expect(error.error_message).toContain('expired');
    } finally {
      h.clock.advance(-3 * 24 * 60 * 60_000);
    }
    const unchanged = expectOk(await h.call(ENDPOINTS.ssoGet, { params })).connection;
    expect(unchanged).toMatchObject({ verification_certificates: [] });
  });
});

describe('OIDC connections (management API)', () => {
  it('discovers the endpoints, keeps the secret sealed and never returns it', async () => {
    const created = expectOk(
      await h.call(ENDPOINTS.ssoCreateOidc, {
        params: org(),
        body: {
          display_name: 'Keycloak',
          issuer: oidc.issuer,
          client_id: 'gatehouse',
          client_secret: 'the-oidc-client-secret',
        },
      }),
    ).connection;
    expect(created).toMatchObject({
      status: 'active',
      issuer: oidc.issuer,
      client_secret_set: true,
      redirect_url: `${h.url}/v1/sso/oidc/callback`,
    });
    expect(created.authorization_url.startsWith(oidc.issuer)).toBe(true);
    expect(created.token_url.startsWith(oidc.issuer)).toBe(true);
    expect(JSON.stringify(created)).not.toContain('the-oidc-client-secret');
    const row = await h.db
      .selectFrom('sso_connections')
      .selectAll()
      .where('id', '=', created.connection_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('the-oidc-client-secret');
  });

  it('refuses an issuer whose discovery fails, and creates nothing', async () => {
    const before = expectOk(await h.call(ENDPOINTS.ssoList, { params: org() })).oidc_connections;
    for (const issuer of [`${h.url}/nothing-here`, 'http://idp.example.com', 'not a url']) {
      const res = await h.call(ENDPOINTS.ssoCreateOidc, {
        params: org(),
        body: { issuer, client_id: 'x', client_secret: 'y' },
      });
      expect(expectError(res).error_type).toBe('oidc_discovery_failed');
    }
    const after = expectOk(await h.call(ENDPOINTS.ssoList, { params: org() })).oidc_connections;
    expect(after).toHaveLength(before.length);
  });
});

describe('deleting and the organization settings', () => {
  it('moves the default to another active connection when the default is deleted', async () => {
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Two IdPs',
      organization_slug: 'two-idps',
    });
    const params = { organization_id: other.organization_id };
    const make = async (name: string) =>
      expectOk(
        await h.call(ENDPOINTS.ssoCreateSaml, {
          params,
          body: {
            display_name: name,
            idp_entity_id: saml.entityId,
            idp_sso_url: saml.ssoUrl,
            x509_certificate: saml.certificate,
          },
        }),
      ).connection.connection_id;
    const first = await make('First');
    const second = await make('Second');
    expect((await organization(other.organization_id)).sso_default_connection_id).toBe(first);
    const deleted = await h.call(ENDPOINTS.ssoDelete, {
      params: { ...params, connection_id: first },
    });
    expect(expectOk(deleted).connection_id).toBe(first);
    const after = await organization(other.organization_id);
    expect(after.sso_default_connection_id).toBe(second);
    expect(after.sso_active_connections.map((c) => c.connection_id)).toEqual([second]);
    await h.call(ENDPOINTS.ssoDelete, { params: { ...params, connection_id: second } });
    expect((await organization(other.organization_id)).sso_default_connection_id).toBeNull();
  });

  it('takes SSO JIT settings and a default that are this organization’s own active connections', async () => {
    const active = await createSaml({
      idp_entity_id: saml.entityId,
      idp_sso_url: saml.ssoUrl,
      x509_certificate: saml.certificate,
    });
    const pending = await createSaml();
    const update = (body: object) => h.call(ENDPOINTS.updateOrganization, { params: org(), body });
    const restricted = expectOk(
      await update({
        sso_jit_provisioning: 'RESTRICTED',
        sso_jit_provisioning_allowed_connections: [active.connection_id],
        sso_default_connection_id: active.connection_id,
      }),
    ).organization;
    expect(restricted).toMatchObject({
      sso_jit_provisioning: 'RESTRICTED',
      sso_jit_provisioning_allowed_connections: [active.connection_id],
      sso_default_connection_id: active.connection_id,
    });
    expect(
      expectError(await update({ sso_default_connection_id: pending.connection_id })).error_type,
    ).toBe('sso_connection_inactive');

    const elsewhere = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Elsewhere',
      organization_slug: 'elsewhere-sso',
    });
    const foreign = expectOk(
      await h.call(ENDPOINTS.ssoCreateSaml, {
        params: { organization_id: elsewhere.organization_id },
        body: {
          idp_entity_id: saml.entityId,
          idp_sso_url: saml.ssoUrl,
          x509_certificate: saml.certificate,
        },
      }),
    ).connection.connection_id;
    expect(expectError(await update({ sso_default_connection_id: foreign })).error_type).toBe(
      'connection_not_found',
    );
    expect(
      expectError(await update({ sso_jit_provisioning_allowed_connections: [foreign] })).error_type,
    ).toBe('connection_not_found');
    expect((await organization()).sso_default_connection_id).toBe(active.connection_id);
  });
});

describe('abuse', () => {
  it("never reaches another organization's or another project's connections", async () => {
    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Theirs',
      organization_slug: 'theirs-sso',
    });
    const connection = expectOk(
      await h.call(ENDPOINTS.ssoCreateSaml, {
        params: { organization_id: theirs.organization_id },
        body: {},
      }),
    ).connection.connection_id;
    // Their connection under our organization's path.
    for (const res of [
      await h.call(ENDPOINTS.ssoGet, { params: { ...org(), connection_id: connection } }),
      await h.call(ENDPOINTS.ssoDelete, { params: { ...org(), connection_id: connection } }),
      await h.call(ENDPOINTS.ssoUpdateSaml, {
        params: { ...org(), connection_id: connection },
        body: { display_name: 'mine now' },
      }),
      await h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
        params: { ...org(), connection_id: connection },
        body: { metadata_xml: saml.metadataXml },
      }),
    ]) {
      expect(expectError(res).error_type).toBe('connection_not_found');
    }
    // Another project's valid secret.
    const other = await h.admin.createProject({ name: 'Other project' });
    const foreignSecret = {
      authorization: `Basic ${Buffer.from(`${other.project_id}:${other.secret}`).toString('base64')}`,
    };
    const list = await h.call(ENDPOINTS.ssoList, {
      params: { organization_id: theirs.organization_id },
      ...foreignSecret,
    });
    expect(expectError(list).error_type).toBe('organization_not_found');
    const get = await h.call(ENDPOINTS.ssoGet, {
      params: { organization_id: theirs.organization_id, connection_id: connection },
      ...foreignSecret,
    });
    expect(expectError(get).error_type).toBe('connection_not_found');
    // A public token or a session token in place of the secret.
    const asPublic = await h.call(ENDPOINTS.ssoList, {
      params: org(),
      authorization: `Basic ${Buffer.from(`${h.project.public_token}:${h.project.public_token}`).toString('base64')}`,
    });
    expect(expectError(asPublic).error_type).toBe('unauthorized_credentials');
    const still = expectOk(
      await h.call(ENDPOINTS.ssoGet, {
        params: { organization_id: theirs.organization_id, connection_id: connection },
      }),
    ).connection;
    expect(still).toMatchObject({ display_name: 'SAML', status: 'pending', idp_entity_id: '' });
  });

  it('keeps one certificate when the same metadata is sent concurrently', async () => {
    const c = await createSaml();
    const params = { ...org(), connection_id: c.connection_id };
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
          params,
          body: i % 2 ? { metadata_xml: saml.metadataXml } : { metadata_url: saml.metadataUrl },
        }),
      ),
    );
    for (const res of results) expect(expectOk(res).connection.status).toBe('active');
    const after = expectOk(await h.call(ENDPOINTS.ssoGet, { params })).connection;
    // One certificate: toMatchObject holds an array to its length.
    expect(after).toMatchObject({
      idp_entity_id: saml.entityId,
      idp_sso_url: saml.ssoUrl,
      verification_certificates: [{ certificate: expect.any(String) as unknown }],
    });
  });

  it('keeps the active list right when many connections are created at once', async () => {
    const many = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Many',
      organization_slug: 'many-sso',
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.call(ENDPOINTS.ssoCreateSaml, {
          params: { organization_id: many.organization_id },
          body: {
            display_name: `IdP ${i}`,
            idp_entity_id: saml.entityId,
            idp_sso_url: saml.ssoUrl,
            x509_certificate: saml.certificate,
          },
        }),
      ),
    );
    const ids = results.map((r) => expectOk(r).connection.connection_id);
    const after = await organization(many.organization_id);
    expect(after.sso_active_connections.map((c) => c.connection_id).sort()).toEqual(ids.sort());
    expect(ids).toContain(after.sso_default_connection_id);
  });
});

describe("the SDK's member-session endpoints", () => {
  it('let an admin manage their own organization’s connections', async () => {
    const created = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateSaml, {
        token: adminToken,
        body: { display_name: 'Set up in the app' },
      }),
    ).connection;
    expect(created.organization_id).toBe(h.org.organization_id);
    const listed = expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: adminToken }));
    expect(listed.saml_connections.map((c) => c.connection_id)).toContain(created.connection_id);
    const updated = expectOk(
      await h.call(ENDPOINTS.sdkSsoUpdateSamlByMetadata, {
        token: adminToken,
        params: { connection_id: created.connection_id },
        body: { metadata_xml: saml.metadataXml },
      }),
    ).connection;
    expect(updated.status).toBe('active');
    expectOk(
      await h.call(ENDPOINTS.sdkSsoDelete, {
        token: adminToken,
        params: { connection_id: created.connection_id },
      }),
    );
  });

  it('refuse members whose roles do not allow it, and callers without a session', async () => {
    const denied = await h.call(ENDPOINTS.sdkSsoCreateSaml, { token: memberToken, body: {} });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    expect(expectError(await h.call(ENDPOINTS.sdkSsoList, { token: memberToken })).error_type).toBe(
      'unauthorized_action',
    );
    const anonymous = await h.call(ENDPOINTS.sdkSsoList);
    expect(anonymous.status).toBe(401);
  });

  it("answer 404 for another organization's connection", async () => {
    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Neighbours',
      organization_slug: 'neighbours-sso',
    });
    const connection = expectOk(
      await h.call(ENDPOINTS.ssoCreateSaml, {
        params: { organization_id: theirs.organization_id },
        body: {},
      }),
    ).connection.connection_id;
    const res = await h.call(ENDPOINTS.sdkSsoDelete, {
      token: adminToken,
      params: { connection_id: connection },
    });
    expect(expectError(res).error_type).toBe('connection_not_found');
    const byMetadata = await h.call(ENDPOINTS.sdkSsoUpdateSamlByMetadata, {
      token: adminToken,
      params: { connection_id: connection },
      body: { metadata_xml: saml.metadataXml },
    });
    expect(expectError(byMetadata).error_type).toBe('connection_not_found');
    expectOk(
      await h.call(ENDPOINTS.ssoGet, {
        params: { organization_id: theirs.organization_id, connection_id: connection },
      }),
    );
  });
});
