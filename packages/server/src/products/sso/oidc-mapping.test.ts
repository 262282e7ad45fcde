// An OIDC connection's custom scopes, claim mapping and group roles over HTTP against a real
// OpenID provider: what the management API and the admin's session may set, what a sign-in asks
// for and reads, where the roles hold, and the refusals (another organization's connection, a
// member without the permission, a role the admin does not hold, bad values).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcConnection } from '@gatehouse/protocol';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  addOidcConnection,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';
import type { OidcSettings } from './connections.js';
import { mappedClaims, normalizeScopes } from './oidc-mapping.js';

let h: Harness;
let idp: OidcIdp;
let connectionId: string;
let callbackUrl: string;
let adminToken: string;
let memberToken: string;
let managerToken: string;

const CLIENT = { clientId: 'gatehouse-mapping', clientSecret: 'a-client-secret-of-some-length' };

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  ({ connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, idp, CLIENT));
  // Manages SSO and role rules, but holds no admin role.
  expectOk(
    await h.call(ENDPOINTS.rbacRoleSet, {
      params: { role_id: 'sso-manager' },
      body: {
        permissions: [
          { resource_id: 'stytch.sso', actions: ['*'] },
          { resource_id: 'stytch.organization', actions: ['update.settings.implicit-roles'] },
        ],
      },
    }),
  );
  idp.users.set('olu@acme.test', {
    password: 'olu-password',
    name: 'Olu Ops',
    groups: ['everyone'],
    claims: { departments: ['ops', 42] },
  });
  await h.addMember('root@acme.test', ['admin', 'sso-manager']);
  await h.addMember('sam@acme.test', ['sso-manager']);
  adminToken = (await h.login('root@acme.test')).session_token;
  managerToken = (await h.login('sam@acme.test')).session_token;
  memberToken = (await h.login('ada@acme.test')).session_token;
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

const updateAsHost = (body: RequestOf<typeof ENDPOINTS.ssoUpdateOidc>, id = connectionId) =>
  h.call(ENDPOINTS.ssoUpdateOidc, {
    params: { organization_id: h.org.organization_id, connection_id: id },
    body,
  });

const updateAs = (
  token: string,
  body: RequestOf<typeof ENDPOINTS.sdkSsoUpdateOidc>,
  id = connectionId,
) => h.call(ENDPOINTS.sdkSsoUpdateOidc, { token, params: { connection_id: id }, body });

async function stored(id = connectionId): Promise<OidcConnection> {
  const { connection } = expectOk(
    await h.call(ENDPOINTS.ssoGet, {
      params: { organization_id: h.org.organization_id, connection_id: id },
    }),
  );
  return connection as OidcConnection;
}

/** A whole sign-in of `email` through the connection: the authorize URL and result F. */
async function ssoSignIn(email: string, password: string) {
  const browser = new TestBrowser();
  const start = await browser.navigate(startUrl(h, connectionId));
  const authorize = new URL(start.location ?? '');
  const { callback } = await signInAtIdp(authorize.href, callbackUrl, { email, password });
  if (!callback) throw new Error('The provider did not return');
  const back = await browser.navigate(callback);
  expect(back.status).toBe(302);
  const result = expectOk(
    await h.call(ENDPOINTS.ssoAuthenticate, {
      body: { sso_token: ssoTokenOf(back.location), session_duration_minutes: 60 },
    }),
  );
  return { scope: authorize.searchParams.get('scope'), result };
}

describe('reading claims', () => {
  it('asks for the default scopes, or the custom ones with openid first', () => {
    expect(normalizeScopes('')).toBe('');
    expect(normalizeScopes('  ')).toBe('');
    expect(normalizeScopes('email%20departments email')).toBe('openid email departments');
  });

  it('reads the mapped claims, names from the mapped parts, one group or many', () => {
    const mapping = { email: 'mail', first_name: 'first', last_name: '', groups: 'team' };
    expect(
      mappedClaims(
        { attribute_mapping: mapping },
        { mail: 'a@b.co', first: 'Ada', name: 'Countess', team: 'ops' },
      ),
    ).toEqual({ email: 'a@b.co', firstName: 'Ada', lastName: '', name: 'Ada', groups: ['ops'] });
    expect(
      mappedClaims(
        { attribute_mapping: { ...mapping, first_name: 'none', groups: '' } },
        { mail: 7, name: 'Countess', team: ['ops'] },
      ),
    ).toEqual({ email: '', firstName: '', lastName: '', name: 'Countess', groups: [] });
  });
});

describe('an OIDC connection’s mapping', () => {
  it('is set through the management API and read back', async () => {
    const { connection } = expectOk(
      await updateAsHost({
        custom_scopes: 'email%20profile departments',
        attribute_mapping: { groups: 'departments' },
      }),
    );
    expect(connection.custom_scopes).toBe('openid email profile departments');
    expect(connection.attribute_mapping).toEqual({
      email: 'email',
      first_name: 'given_name',
      last_name: 'family_name',
      groups: 'departments',
    });
    // `""` restores the default scopes; the mapping stays.
    const reset = expectOk(await updateAsHost({ custom_scopes: '' })).connection;
    expect(reset.custom_scopes).toBe('');
    expect(reset.attribute_mapping.groups).toBe('departments');
  });

  it('gives roles from the mapped groups claim, once the custom scopes ask for it', async () => {
    expectOk(
      await updateAs(adminToken, {
        attribute_mapping: {
          first_name: 'family_name',
          last_name: 'given_name',
          groups: 'departments',
        },
        oidc_group_implicit_role_assignments: [
          { group: 'ops', role_id: 'admin' },
          { group: 'everyone', role_id: 'sso-manager' },
        ],
      }),
    );
    // Without the scope the provider sends no departments claim: no role from it.
    const before = await ssoSignIn('olu@acme.test', 'olu-password');
    expect(before.scope).toBe('openid email profile');
    expect(before.result.member.roles.map((r) => r.role_id)).not.toContain('admin');

    expectOk(await updateAs(adminToken, { custom_scopes: 'openid email profile departments' }));
    const { scope, result } = await ssoSignIn('olu@acme.test', 'olu-password');
    expect(scope).toBe('openid email profile departments');
    expect(result.member.name).toBe('Ops Olu');
    // `everyone` is in the groups claim, which this connection does not read.
    expect(result.member.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    expect(result.member.roles).toContainEqual({
      role_id: 'admin',
      sources: [{ type: 'sso_connection_group', details: { connection_id: connectionId } }],
    });
    expect(result.member_session?.roles).toContain('admin');

    // The role holds only in a session holding a factor of this connection.
    const byLink = await h.login('olu@acme.test');
    expect(byLink.member_session.roles).not.toContain('admin');
    const denied = await h.call(ENDPOINTS.sdkSsoList, { token: byLink.session_token });
    expect(expectError(denied).error_type).toBe('unauthorized_action');
  });

  it("shows in a test sign-in's report what a sign-in would read", async () => {
    const started = expectOk(
      await h.call(ENDPOINTS.sdkSsoTestOidc, {
        token: adminToken,
        params: { connection_id: connectionId },
        body: {},
      }),
    );
    expect(new URL(started.idp_url).searchParams.get('scope')).toBe(
      'openid email profile departments',
    );
    const { callback } = await signInAtIdp(started.idp_url, callbackUrl, {
      email: 'olu@acme.test',
      password: 'olu-password',
    });
    expect((await new TestBrowser().navigate(callback ?? '')).status).toBe(200);
    const { test } = expectOk(
      await h.call(ENDPOINTS.sdkSsoTestOidcResult, {
        token: adminToken,
        params: { connection_id: connectionId, test_id: started.test.test_id },
      }),
    );
    expect(test.mapped).toEqual({
      email: 'olu@acme.test',
      first_name: 'Ops',
      last_name: 'Olu',
      groups: ['ops'],
    });
    expect(test.roles).toEqual(['admin']);
  });
});

describe('abuse of the mapping', () => {
  it("never changes another organization's connection", async () => {
    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Neighbours',
      organization_slug: 'neighbours-oidc-mapping',
    });
    const settings = JSON.parse(
      (
        await h.db
          .selectFrom('sso_connections')
          .select('settings')
          .where('id', '=', connectionId)
          .executeTakeFirstOrThrow()
      ).settings,
    ) as OidcSettings;
    const their = await addOidcConnection(h, {
      organizationId: theirs.organization_id,
      clientSecret: CLIENT.clientSecret,
      settings,
    });
    const res = await updateAs(adminToken, { attribute_mapping: { email: 'upn' } }, their);
    expect([res.status, expectError(res).error_type]).toEqual([404, 'connection_not_found']);
    const { connection } = expectOk(
      await h.call(ENDPOINTS.ssoGet, {
        params: { organization_id: theirs.organization_id, connection_id: their },
      }),
    );
    expect((connection as OidcConnection).attribute_mapping.email).toBe('email');
  });

  it('refuses a member without the permission to update SSO', async () => {
    const before = await stored();
    const res = await updateAs(memberToken, {
      attribute_mapping: { email: 'upn' },
      custom_scopes: 'openid groups',
    });
    expect([res.status, expectError(res).error_type]).toEqual([403, 'unauthorized_action']);
    expect(await stored()).toEqual(before);
  });

  it('refuses a group rule for a role the admin does not hold, and takes one they hold', async () => {
    const before = await stored();
    const rules = before.oidc_group_implicit_role_assignments;
    const res = await updateAs(managerToken, {
      attribute_mapping: { groups: 'roles' },
      oidc_group_implicit_role_assignments: [...rules, { group: 'interns', role_id: 'admin' }],
    });
    expect([res.status, expectError(res).error_type]).toEqual([403, 'unauthorized_action']);
    expect(await stored()).toEqual(before);
    // Removing a rule for a role they do not hold is a grant too.
    const removal = await updateAs(managerToken, {
      oidc_group_implicit_role_assignments: rules.filter((r) => r.role_id !== 'admin'),
    });
    expect(expectError(removal).error_type).toBe('unauthorized_action');
    const { connection } = expectOk(
      await updateAs(managerToken, {
        oidc_group_implicit_role_assignments: [
          ...rules,
          { group: 'stewards', role_id: 'sso-manager' },
        ],
      }),
    );
    expect(connection.oidc_group_implicit_role_assignments).toContainEqual({
      group: 'stewards',
      role_id: 'sso-manager',
    });
  });

  it('refuses bad scopes, an empty e-mail claim and an unknown role with a 400', async () => {
    const before = await stored();
    for (const body of [
      { custom_scopes: 'openid "groups"' },
      { custom_scopes: 'x'.repeat(1025) },
      { attribute_mapping: { email: '' } },
      { attribute_mapping: { groups: 'g'.repeat(257) } },
      { oidc_group_implicit_role_assignments: [{ group: 'ops', role_id: 'no-such-role' }] },
    ] as RequestOf<typeof ENDPOINTS.sdkSsoUpdateOidc>[]) {
      const res = await updateAs(adminToken, body);
      expect(res.status).toBe(400);
      expect(expectError(res).error_type).toMatch(/^invalid_|_not_found$/);
    }
    expect(await stored()).toEqual(before);
  });
});
