// A SAML connection's roles for everyone who signs in through it, over HTTP against a real SAML
// IdP: what the management API and an admin's session may set, where the roles hold (the sessions
// that signed in through the connection, not a magic link's), and the refusals (another
// organization's connection, a member without the permission, a role they do not hold, a role
// the policy lacks) and concurrent changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamlConnection } from '@gatehouse/protocol';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { decodeJwt } from 'jose';
import { IMPLICIT_ROLES_ACTION, IMPLICIT_ROLES_RESOURCE } from '../../tenancy/rbac/grants.js';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addSamlConnection,
  authnRequestId,
  ssoTokenOf,
  startUrl,
  type TestConnection,
} from '../../test/sso.js';

let h: Harness;
let idp: SamlIdp;
let conn: TestConnection;
let adminToken: string;
let editorToken: string;
let granterToken: string;

/** What the auditor role allows, asked of a session by `authorization_check`. */
const AUDIT = { resource_id: 'ledger', action: 'read' } as const;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  conn = await addSamlConnection(h, {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
  });
  const role = (role_id: string, permissions: { resource_id: string; actions: string[] }[]) =>
    h.call(ENDPOINTS.rbacRoleSet, { params: { role_id }, body: { permissions } });
  expectOk(
    await h.call(ENDPOINTS.rbacResourceSet, {
      params: { resource_id: AUDIT.resource_id },
      body: { description: 'The books', actions: [AUDIT.action] },
    }),
  );
  expectOk(await role('auditor', [{ resource_id: AUDIT.resource_id, actions: [AUDIT.action] }]));
  // Manages SSO connections, but may not change the rules that give roles.
  expectOk(await role('sso-editor', [{ resource_id: 'stytch.sso', actions: ['*'] }]));
  // May change those rules too, but holds no auditor role.
  expectOk(
    await role('role-granter', [
      { resource_id: 'stytch.sso', actions: ['*'] },
      { resource_id: IMPLICIT_ROLES_RESOURCE, actions: [IMPLICIT_ROLES_ACTION] },
    ]),
  );
  await h.addMember('root@acme.test', ['admin', 'auditor']);
  await h.addMember('sue@acme.test', ['sso-editor']);
  await h.addMember('gil@acme.test', ['role-granter']);
  adminToken = (await h.login('root@acme.test')).session_token;
  editorToken = (await h.login('sue@acme.test')).session_token;
  granterToken = (await h.login('gil@acme.test')).session_token;
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

type Body = RequestOf<typeof ENDPOINTS.ssoUpdateSaml>;

const updateAsHost = (body: Body, id = conn.connectionId, org = h.org.organization_id) =>
  h.call(ENDPOINTS.ssoUpdateSaml, { params: { organization_id: org, connection_id: id }, body });

const updateAs = (token: string, body: Body, id = conn.connectionId) =>
  h.call(ENDPOINTS.sdkSsoUpdateSaml, { token, params: { connection_id: id }, body });

const roles = (...ids: string[]) => ids.map((role_id) => ({ role_id }));

async function stored(): Promise<SamlConnection> {
  const { connection } = expectOk(
    await h.call(ENDPOINTS.ssoGet, {
      params: { organization_id: h.org.organization_id, connection_id: conn.connectionId },
    }),
  );
  return connection as SamlConnection;
}

/** A whole SAML sign-in of `email` through a connection (by default `conn`): result F. */
async function ssoSignIn(email: string, through = conn) {
  const browser = new TestBrowser();
  const start = await browser.navigate(startUrl(h, through.connectionId));
  const response = await idp.createResponse({
    sp: { entityId: through.entityId, acsUrl: through.acsUrl },
    email,
    inResponseTo: authnRequestId(start.location ?? ''),
  });
  const acs = await browser.postToAcs(through.acsUrl, response);
  expect(acs.status).toBe(302);
  return expectOk(
    await h.call(ENDPOINTS.ssoAuthenticate, {
      body: { sso_token: ssoTokenOf(acs.location), session_duration_minutes: 60 },
    }),
  );
}

const jwtRoles = (jwt: string) =>
  (decodeJwt(jwt)['https://stytch.com/session'] as { roles: string[] }).roles;

/** Whether the session's roles allow reading the ledger, as the backend asks it. */
async function mayAudit(sessionToken: string): Promise<boolean> {
  const res = await h.call(ENDPOINTS.authenticateSession, {
    body: {
      session_token: sessionToken,
      authorization_check: { organization_id: h.org.organization_id, ...AUDIT },
    },
  });
  if (res.ok) return true;
  expect(expectError(res).error_type).toBe('session_authorization_error');
  return false;
}

describe("a SAML connection's roles", () => {
  it('are set through the management API and answered on every SAML connection object', async () => {
    const { connection } = expectOk(
      await updateAsHost({
        saml_connection_implicit_role_assignments: roles('auditor', 'auditor'),
      }),
    );
    expect(connection.saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
    expect((await stored()).saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
    const list = expectOk(
      await h.call(ENDPOINTS.ssoList, { params: { organization_id: h.org.organization_id } }),
    );
    const listed = list.saml_connections.find((c) => c.connection_id === conn.connectionId);
    expect(listed?.saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
    const sdk = expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: adminToken }));
    const seen = sdk.saml_connections.find((c) => c.connection_id === conn.connectionId);
    expect(seen?.saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
    // Fields not sent are left as they were.
    expectOk(await updateAsHost({ display_name: 'Okta' }));
    expect((await stored()).saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
  });

  it('hold in a session that signed in through the connection, not in a magic link’s', async () => {
    const result = await ssoSignIn('grace@acme.test');
    expect(result.member.roles).toContainEqual({
      role_id: 'auditor',
      sources: [{ type: 'sso_connection', details: { connection_id: conn.connectionId } }],
    });
    expect(result.member_session?.roles).toContain('auditor');
    expect(jwtRoles(result.session_jwt)).toContain('auditor');
    expect(await mayAudit(result.session_token)).toBe(true);

    const byLink = await h.login('grace@acme.test');
    expect(byLink.member_session.roles).not.toContain('auditor');
    expect(jwtRoles(byLink.session_jwt)).not.toContain('auditor');
    expect(await mayAudit(byLink.session_token)).toBe(false);
  });

  it('leave the members who signed in through it as soon as they are taken off, and come back', async () => {
    const { session_token } = await ssoSignIn('hal@acme.test');
    expect(await mayAudit(session_token)).toBe(true);
    expectOk(await updateAs(adminToken, { saml_connection_implicit_role_assignments: [] }));
    expect(await mayAudit(session_token)).toBe(false);
    const member = await h.admin.getMemberByEmail(
      h.project.project_id,
      h.org.organization_id,
      'hal@acme.test',
    );
    expect(member?.roles.map((r) => r.role_id)).toEqual(['member']);
    expectOk(
      await updateAs(adminToken, { saml_connection_implicit_role_assignments: roles('auditor') }),
    );
    expect(await mayAudit(session_token)).toBe(true);
  });

  it('go with their connection when it is deleted', async () => {
    const doomed = await addSamlConnection(h, {
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
      connectionRoles: ['auditor'],
      displayName: 'Doomed',
    });
    const { member, session_token } = await ssoSignIn('kim@acme.test', doomed);
    expect(member.roles.map((r) => r.role_id)).toContain('auditor');
    expectOk(
      await h.call(ENDPOINTS.ssoDelete, {
        params: { organization_id: h.org.organization_id, connection_id: doomed.connectionId },
      }),
    );
    const after = await h.admin.getMemberByEmail(
      h.project.project_id,
      h.org.organization_id,
      'kim@acme.test',
    );
    expect(after?.roles.map((r) => r.role_id)).toEqual(['member']);
    expect(await mayAudit(session_token)).toBe(false);
  });
});

describe('abuse of connection roles', () => {
  it("never changes another organization's connection", async () => {
    const theirs = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Neighbours',
      organization_slug: 'neighbours-connection-roles',
    });
    const other = await addSamlConnection(h, {
      organizationId: theirs.organization_id,
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
    });
    const body = { saml_connection_implicit_role_assignments: roles('admin') };
    // Another organization's id in the path with this one's connection, and the other way round.
    const wrongOrg = await updateAsHost(body, conn.connectionId, theirs.organization_id);
    expect(wrongOrg.status).toBe(404);
    const viaSession = await updateAs(adminToken, body, other.connectionId);
    expect(viaSession.status).toBe(404);
    const { connection } = expectOk(
      await h.call(ENDPOINTS.ssoGet, {
        params: { organization_id: theirs.organization_id, connection_id: other.connectionId },
      }),
    );
    expect((connection as SamlConnection).saml_connection_implicit_role_assignments).toEqual([]);
  });

  it('refuses a member without the permission to change role rules, changing nothing', async () => {
    const refused = expectError(
      await updateAs(editorToken, {
        saml_connection_implicit_role_assignments: roles('sso-editor'),
      }),
    );
    expect(refused.status_code).toBe(403);
    expect(refused.error_type).toBe('unauthorized_action');
    // The same member may change the connection's other fields, and send its roles unchanged.
    const same = {
      display_name: 'Okta',
      saml_connection_implicit_role_assignments: roles('auditor'),
    };
    expectOk(await updateAs(editorToken, same));
    const plain = expectError(
      await updateAs((await h.login()).session_token, { display_name: 'x' }),
    );
    expect(plain.status_code).toBe(403);
    expect((await stored()).saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
  });

  it('refuses a role the acting member does not hold, to give or to take away', async () => {
    for (const list of [roles('role-granter'), [], roles('auditor', 'admin')]) {
      const refused = expectError(
        await updateAs(granterToken, { saml_connection_implicit_role_assignments: list }),
      );
      expect(refused.status_code).toBe(403);
      expect(refused.error_type).toBe('unauthorized_action');
    }
    expect((await stored()).saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
  });

  it('refuses a role the policy does not have, from the host too', async () => {
    for (const send of [updateAsHost, (b: Body) => updateAs(adminToken, b)]) {
      const refused = expectError(
        await send({ saml_connection_implicit_role_assignments: roles('auditor', 'superuser') }),
      );
      expect(refused.status_code).toBe(400);
      expect(refused.error_message).toContain('superuser');
    }
    const malformed = expectError(
      await updateAsHost({
        saml_connection_implicit_role_assignments: [{ role: 'auditor' }] as never,
      }),
    );
    expect(malformed.status_code).toBe(400);
    expect((await stored()).saml_connection_implicit_role_assignments).toEqual(roles('auditor'));
  });

  it('gives its roles once to members signing in while the list is saved at the same time', async () => {
    const [first, second, saved] = await Promise.all([
      ssoSignIn('ivy@acme.test'),
      ssoSignIn('jay@acme.test'),
      updateAsHost({ saml_connection_implicit_role_assignments: roles('auditor') }),
    ]);
    expectOk(saved);
    // Read once all three are done: a sign-in answered before the change is saved answers
    // without the role, which the change then gives.
    for (const result of [first, second]) {
      const member = expectOk(
        await h.call(ENDPOINTS.getMember, {
          params: { organization_id: h.org.organization_id, member_id: result.member_id },
        }),
      ).member;
      expect(member.roles.filter((r) => r.role_id === 'auditor')).toEqual([
        {
          role_id: 'auditor',
          sources: [{ type: 'sso_connection', details: { connection_id: conn.connectionId } }],
        },
      ]);
    }
  });

  it('keeps every one of concurrent changes of a connection', async () => {
    for (let round = 0; round < 4; round += 1) {
      const group = [{ group: `team-${round}`, role_id: 'auditor' }];
      const list = round % 2 === 0 ? roles('admin') : roles('auditor');
      const answers = await Promise.all([
        updateAsHost({ saml_group_implicit_role_assignments: group }),
        updateAs(adminToken, { saml_connection_implicit_role_assignments: list }),
        updateAsHost({ display_name: `Okta ${round}` }),
      ]);
      for (const answer of answers) expectOk(answer);
      const now = await stored();
      expect(now.saml_group_implicit_role_assignments).toEqual(group);
      expect(now.saml_connection_implicit_role_assignments).toEqual(list);
      expect(now.display_name).toBe(`Okta ${round}`);
    }
  });
});
