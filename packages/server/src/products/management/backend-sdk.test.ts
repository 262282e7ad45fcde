// The management API through the hosted provider's official Node SDK (`stytch` 14, `B2BClient`),
// over TLS with PUBLIC_URL as its base URL: every call Gatehouse offers answers what the SDK's
// types promise, each required field present, and session JWTs verify locally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FullSessionResult } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, startSamlIdp, type OidcIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectSession } from '../../test/harness.js';
import {
  ACTIVE_SSO_CONNECTION,
  expectFields,
  MEMBER,
  MEMBER_SESSION,
  OIDC_CONNECTION,
  ORGANIZATION,
  SAML_CONNECTION,
} from '../../test/sdk-fields.js';

/** The provider's answer envelope: `request_id` and `status_code` beside the fields. */
function expectAck(answer: { request_id: string; status_code: number }): void {
  expect(answer.status_code).toBe(200);
  expect(answer.request_id).toMatch(/^request-id-test-/);
}

let sdk: SdkHarness;
let saml: SamlIdp;
let oidc: OidcIdp;

const PASSWORD = 'correct horse battery staple 42';

beforeAll(async () => {
  [sdk, saml, oidc] = await Promise.all([startSdkHarness(), startSamlIdp(), startOidcIdp()]);
  await sdk.h.admin.setMemberPassword(sdk.h.project.project_id, sdk.h.member.member_id, {
    password: PASSWORD,
  });
});

/** Signs Ada in from the browser API with her password: result F. */
async function login(): Promise<FullSessionResult> {
  const res = await sdk.h.call(ENDPOINTS.passwordsAuthenticate, {
    body: {
      organization_id: sdk.h.org.organization_id,
      email_address: 'ada@acme.test',
      password: PASSWORD,
    },
  });
  return expectSession(res);
}

afterAll(async () => {
  await Promise.all([sdk?.close(), saml?.close(), oidc?.close()]);
});

describe('organizations', () => {
  it('create answers the organization with every field', async () => {
    const answer = await sdk.client.organizations.create({
      organization_name: 'Globex',
      organization_slug: 'globex',
      email_allowed_domains: ['globex.test'],
      email_jit_provisioning: 'RESTRICTED',
    });
    expectAck(answer);
    expectFields(answer.organization, ORGANIZATION);
    expect(answer.organization).toMatchObject({
      organization_name: 'Globex',
      organization_slug: 'globex',
      email_allowed_domains: ['globex.test'],
      email_jit_provisioning: 'RESTRICTED',
      claimed_email_domains: [],
      custom_roles: [],
      sso_active_connections: [],
    });
  });

  it('get answers the organization by id', async () => {
    const answer = await sdk.client.organizations.get({
      organization_id: sdk.h.org.organization_id,
    });
    expectAck(answer);
    expectFields(answer.organization, ORGANIZATION);
    expect(answer.organization.organization_slug).toBe('acme');
    expect(answer.organization.email_allowed_domains).toEqual(['acme.test']);
  });

  it('update changes the name and the MFA policy', async () => {
    const created = await sdk.client.organizations.create({
      organization_name: 'Initech',
      organization_slug: 'initech',
    });
    const answer = await sdk.client.organizations.update({
      organization_id: created.organization.organization_id,
      organization_name: 'Initech Ltd',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    expectAck(answer);
    expectFields(answer.organization, ORGANIZATION);
    expect(answer.organization).toMatchObject({
      organization_id: created.organization.organization_id,
      organization_name: 'Initech Ltd',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
  });

  it('refuse an unknown organization with the provider error shape', async () => {
    const failure = await sdk.client.organizations
      .get({ organization_id: 'organization-test-nope' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toMatchObject({ status_code: 404, error_type: 'organization_not_found' });
  });
});

describe('organizations.members', () => {
  it('create answers member_id beside the member and its organization', async () => {
    const answer = await sdk.client.organizations.members.create({
      organization_id: sdk.h.org.organization_id,
      email_address: 'grace@acme.test',
      name: 'Grace',
      roles: ['admin'],
    });
    expectAck(answer);
    expectFields(answer.member, MEMBER);
    expectFields(answer.organization, ORGANIZATION);
    expect(answer.member_id).toBe(answer.member.member_id);
    expect(answer.member).toMatchObject({
      email_address: 'grace@acme.test',
      name: 'Grace',
      status: 'active',
      is_admin: true,
      is_locked: false,
      is_breakglass: false,
      oauth_registrations: [],
      retired_email_addresses: [],
    });
  });

  it('create with create_member_as_pending makes a pending member', async () => {
    const answer = await sdk.client.organizations.members.create({
      organization_id: sdk.h.org.organization_id,
      email_address: 'pending@acme.test',
      create_member_as_pending: true,
    });
    expectFields(answer.member, MEMBER);
    expect(answer.member.status).toBe('pending');
  });

  it('get answers the member by id', async () => {
    const answer = await sdk.client.organizations.members.get({
      organization_id: sdk.h.org.organization_id,
      member_id: sdk.h.member.member_id,
    });
    expectAck(answer);
    expectFields(answer.member, MEMBER);
    expect(answer.member_id).toBe(sdk.h.member.member_id);
    expect(answer.member).toMatchObject({ email_address: 'ada@acme.test', is_admin: false });
    expect(answer.organization.organization_id).toBe(sdk.h.org.organization_id);
  });

  it('update changes the name and the roles', async () => {
    const created = await sdk.client.organizations.members.create({
      organization_id: sdk.h.org.organization_id,
      email_address: 'linus@acme.test',
    });
    const answer = await sdk.client.organizations.members.update({
      organization_id: sdk.h.org.organization_id,
      member_id: created.member_id,
      name: 'Linus',
      roles: ['admin'],
    });
    expectAck(answer);
    expectFields(answer.member, MEMBER);
    expect(answer.member_id).toBe(created.member_id);
    expect(answer.member.name).toBe('Linus');
    expect(answer.member.is_admin).toBe(true);
    expect(answer.member.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
  });
});

describe('sessions', () => {
  it('authenticate answers the session with its organization slug, member and organization', async () => {
    const signedIn = await login();
    const answer = await sdk.client.sessions.authenticate({
      session_token: signedIn.session_token,
    });
    expectAck(answer);
    expectFields(answer.member_session, MEMBER_SESSION);
    expectFields(answer.member, MEMBER);
    expectFields(answer.organization, ORGANIZATION);
    expect(answer.member_session).toMatchObject({
      member_session_id: signedIn.member_session.member_session_id,
      member_id: signedIn.member_id,
      organization_id: sdk.h.org.organization_id,
      organization_slug: 'acme',
      roles: ['member'],
    });
    expect(answer.session_jwt.split('.')).toHaveLength(3);
  });

  it('authenticateJwtLocal verifies the JWT against the JWKS, without asking the server', async () => {
    const signedIn = await login();
    const session = await sdk.client.sessions.authenticateJwtLocal({
      session_jwt: signedIn.session_jwt,
      current_date: new Date(sdk.h.clock.now),
    });
    expect(session).toEqual({
      member_session_id: signedIn.member_session.member_session_id,
      member_id: signedIn.member_id,
      organization_id: sdk.h.org.organization_id,
      organization_slug: 'acme',
      authentication_factors: signedIn.member_session.authentication_factors,
      started_at: signedIn.member_session.started_at,
      last_accessed_at: signedIn.member_session.last_accessed_at,
      expires_at: signedIn.member_session.expires_at,
      custom_claims: {},
      roles: ['member'],
    });
  });

  it('authenticateJwt answers from the local check (only a remote answer carries the member)', async () => {
    const signedIn = await login();
    // Checked at the real time: the harness's clock is the time it started, within the JWT's life.
    const answer = await sdk.client.sessions.authenticateJwt({ session_jwt: signedIn.session_jwt });
    expect(answer).not.toHaveProperty('member');
    expect(answer.session_jwt).toBe(signedIn.session_jwt);
    expect(answer.member_session.member_session_id).toBe(signedIn.member_session.member_session_id);
  });

  it('authenticateJwtLocal refuses a JWT with a tampered signature', async () => {
    const signedIn = await login();
    const failure = await sdk.client.sessions
      .authenticateJwtLocal({
        session_jwt: `${signedIn.session_jwt.slice(0, -4)}AAAA`,
        current_date: new Date(sdk.h.clock.now),
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^jwt_invalid: /);
  });

  it('revoke ends the session', async () => {
    const signedIn = await login();
    const answer = await sdk.client.sessions.revoke({ session_token: signedIn.session_token });
    expectAck(answer);
    const failure = await sdk.client.sessions
      .authenticate({ session_token: signedIn.session_token })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toMatchObject({ status_code: 404, error_type: 'session_not_found' });
  });

  it('getJWKS answers the signing keys', async () => {
    const answer = await sdk.client.sessions.getJWKS({ project_id: sdk.h.project.project_id });
    expectAck(answer);
    expect(answer.keys.length).toBeGreaterThan(0);
    expect(answer.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });
});

describe('sso', () => {
  const org = () => ({ organization_id: sdk.h.org.organization_id });

  it('saml.createConnection answers a pending connection with every field', async () => {
    const answer = await sdk.client.sso.saml.createConnection({
      ...org(),
      display_name: 'Okta',
      identity_provider: 'okta',
    });
    expectAck(answer);
    expectFields(answer.connection, SAML_CONNECTION);
    expect(answer.connection).toMatchObject({
      status: 'pending',
      display_name: 'Okta',
      identity_provider: 'okta',
      acs_url: `${sdk.url}/v1/sso/saml/acs/${answer.connection?.connection_id}`,
      signing_certificates: [],
      idp_initiated_auth_disabled: true,
      alternative_acs_url: '',
    });
  });

  it('saml.updateConnection sets the IdP side and activates the connection', async () => {
    const created = await sdk.client.sso.saml.createConnection({ ...org(), display_name: 'IdP' });
    const connectionId = created.connection?.connection_id ?? '';
    const answer = await sdk.client.sso.saml.updateConnection({
      ...org(),
      connection_id: connectionId,
      idp_entity_id: saml.entityId,
      idp_sso_url: saml.ssoUrl,
      x509_certificate: saml.certificate,
    });
    expectAck(answer);
    expectFields(answer.connection, SAML_CONNECTION);
    expect(answer.connection?.status).toBe('active');
    expect(answer.connection?.verification_certificates).toHaveLength(1);
    const { organization } = await sdk.client.organizations.get(org());
    const active = organization.sso_active_connections.find(
      (c) => c.connection_id === connectionId,
    );
    expectFields(active, ACTIVE_SSO_CONNECTION);
  });

  it('saml.updateByURL reads the IdP metadata', async () => {
    const created = await sdk.client.sso.saml.createConnection(org());
    const answer = await sdk.client.sso.saml.updateByURL({
      ...org(),
      connection_id: created.connection?.connection_id ?? '',
      metadata_url: saml.metadataUrl,
    });
    expectAck(answer);
    expectFields(answer.connection, SAML_CONNECTION);
    expect(answer.connection).toMatchObject({
      status: 'active',
      idp_entity_id: saml.entityId,
      idp_sso_url: saml.ssoUrl,
    });
  });

  it('saml.deleteVerificationCertificate removes a certificate', async () => {
    const created = await sdk.client.sso.saml.createConnection(org());
    const connectionId = created.connection?.connection_id ?? '';
    const updated = await sdk.client.sso.saml.updateConnection({
      ...org(),
      connection_id: connectionId,
      x509_certificate: saml.certificate,
    });
    const certificateId = updated.connection?.verification_certificates[0]?.certificate_id ?? '';
    const answer = await sdk.client.sso.saml.deleteVerificationCertificate({
      ...org(),
      connection_id: connectionId,
      certificate_id: certificateId,
    });
    expectAck(answer);
    const { saml_connections } = await sdk.client.sso.getConnections(org());
    const after = saml_connections.find((c) => c.connection_id === connectionId);
    expect(after?.verification_certificates).toEqual([]);
  });

  it('oidc.createConnection and updateConnection answer the connection with every field', async () => {
    const created = await sdk.client.sso.oidc.createConnection({ ...org(), display_name: 'Auth0' });
    expectAck(created);
    expectFields(created.connection, OIDC_CONNECTION);
    expect(created.connection?.status).toBe('pending');
    const answer = await sdk.client.sso.oidc.updateConnection({
      ...org(),
      connection_id: created.connection?.connection_id ?? '',
      issuer: oidc.issuer,
      client_id: 'gatehouse',
      client_secret: 'sdk-secret',
    });
    expectAck(answer);
    expectFields(answer.connection, OIDC_CONNECTION);
    expect(answer.connection).toMatchObject({
      status: 'active',
      issuer: oidc.issuer,
      client_id: 'gatehouse',
      client_secret: '',
      custom_scopes: '',
      redirect_url: `${sdk.url}/v1/sso/oidc/callback`,
    });
  });

  it('oidc.updateConnection stores custom scopes, written as the SDK documents them, and the claim mapping', async () => {
    const created = await sdk.client.sso.oidc.createConnection({ ...org(), display_name: 'Okta' });
    const answer = await sdk.client.sso.oidc.updateConnection({
      ...org(),
      connection_id: created.connection?.connection_id ?? '',
      custom_scopes: 'openid%20email%20profile%20groups',
      attribute_mapping: { groups: 'roles', first_name: 'givenName' },
    });
    expectAck(answer);
    expect(answer.connection).toMatchObject({
      custom_scopes: 'openid email profile groups',
      attribute_mapping: {
        email: 'email',
        first_name: 'givenName',
        last_name: 'family_name',
        groups: 'roles',
      },
    });
  });

  it('getConnections lists SAML, OIDC and (empty) external connections', async () => {
    const answer = await sdk.client.sso.getConnections(org());
    expectAck(answer);
    expect(answer.saml_connections.length).toBeGreaterThan(0);
    for (const connection of answer.saml_connections) expectFields(connection, SAML_CONNECTION);
    for (const connection of answer.oidc_connections) expectFields(connection, OIDC_CONNECTION);
    expect(answer.external_connections).toEqual([]);
  });

  it('deleteConnection answers the connection id, and the connection is gone', async () => {
    const created = await sdk.client.sso.saml.createConnection(org());
    const connectionId = created.connection?.connection_id ?? '';
    const answer = await sdk.client.sso.deleteConnection({ ...org(), connection_id: connectionId });
    expectAck(answer);
    expect(answer.connection_id).toBe(connectionId);
    const { saml_connections } = await sdk.client.sso.getConnections(org());
    expect(saml_connections.map((c) => c.connection_id)).not.toContain(connectionId);
  });
});

describe('rbac', () => {
  it('policy answers the roles, resources and scopes', async () => {
    const answer = await sdk.client.rbac.policy();
    expectAck(answer);
    expect(answer.policy?.roles.map((r) => r.role_id)).toEqual(
      expect.arrayContaining(['member', 'admin']),
    );
    expect(answer.policy?.resources.map((r) => r.resource_id)).toContain('stytch.member');
    expect(answer.policy?.scopes).toEqual([]);
  });
});
