// The roles an SSO connection's groups give hold only in a session signed in with that
// connection: not after a magic link, not after another connection, on every path that checks
// roles (browser RBAC, management calls with a member's session, authorization_check, the JWT).
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
/** Gives `admin` to its `ops` group. */
let opsConnection: TestConnection;
/** Gives `admin` to nobody the tests sign in: its mapping names a group they are not in. */
let plainConnection: TestConnection;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  const idpSettings = {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
  };
  opsConnection = await addSamlConnection(h, {
    ...idpSettings,
    groupRoles: [{ group: 'ops', role_id: 'admin' }],
  });
  plainConnection = await addSamlConnection(h, {
    ...idpSettings,
    displayName: 'Plain',
    groupRoles: [{ group: 'founders', role_id: 'admin' }],
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

/** The IdP's answer to a sign-in of `email` in `groups` started through `conn`, ready to post. */
async function idpAnswer(conn: TestConnection, email: string, groups: string[]) {
  const browser = new TestBrowser();
  const started = await browser.navigate(startUrl(h, conn.connectionId));
  const response = await idp.createResponse({
    sp: { entityId: conn.entityId, acsUrl: conn.acsUrl },
    email,
    groups,
    inResponseTo: authnRequestId(started.location ?? ''),
  });
  return () => browser.postToAcs(conn.acsUrl, response);
}

/** A full SSO sign-in of `email` in `groups` through `conn`: result F's session. */
async function ssoSignIn(conn: TestConnection, email: string, groups: string[]) {
  const acs = await (await idpAnswer(conn, email, groups))();
  return redeem(acs.location);
}

/** Redeems the `sso` token of an ACS redirect: result F's session. */
async function redeem(location: string | null) {
  const result = expectOk(
    await h.call(ENDPOINTS.ssoAuthenticate, {
      body: { sso_token: ssoTokenOf(location), session_duration_minutes: 60 },
    }),
  );
  if (!result.member_session) throw new Error('expected a session');
  return {
    session_token: result.session_token,
    session_jwt: result.session_jwt,
    roles: result.member_session.roles,
  };
}

const jwtRoles = (jwt: string) =>
  (decodeJwt(jwt)['https://stytch.com/session'] as { roles: string[] }).roles;

/** Every way the server answers whether the session may update its organization. */
async function verdicts(session: { session_token: string }) {
  const organization_id = h.org.organization_id;
  const browser = await h.call(ENDPOINTS.organizationUpdateMe, {
    token: session.session_token,
    body: { organization_name: h.org.organization_name },
  });
  const management = await h.call(ENDPOINTS.updateOrganization, {
    params: { organization_id },
    body: { organization_name: h.org.organization_name },
    headers: { 'X-Stytch-Member-Session': session.session_token },
  });
  const check = await h.call(ENDPOINTS.authenticateSession, {
    body: {
      session_token: session.session_token,
      authorization_check: {
        organization_id,
        resource_id: 'stytch.organization',
        action: 'update',
      },
    },
  });
  const outcome = (res: { status: number }) =>
    res.status === 200 ? 'allowed' : `${res.status} ${expectError(res as never).error_type}`;
  return { browser: outcome(browser), management: outcome(management), check: outcome(check) };
}

describe("An SSO connection's group roles", () => {
  it('hold in a session signed in with that connection, on every check', async () => {
    const sso = await ssoSignIn(opsConnection, 'olga@acme.test', ['ops']);
    expect(sso.roles).toContain('admin');
    expect(jwtRoles(sso.session_jwt)).toContain('admin');
    expect(await verdicts(sso)).toEqual({
      browser: 'allowed',
      management: 'allowed',
      check: 'allowed',
    });
    const authenticated = expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_token: sso.session_token } }),
    );
    expect(authenticated.member_session.roles).toContain('admin');
    expect(jwtRoles(authenticated.session_jwt)).toContain('admin');
  });

  it('do not hold in a session of the same member signed in by magic link', async () => {
    await ssoSignIn(opsConnection, 'mona@acme.test', ['ops']);
    const byLink = await h.login('mona@acme.test');
    // The member still lists the role with the connection that gives it.
    expect(byLink.member.roles).toContainEqual({
      role_id: 'admin',
      sources: [
        { type: 'sso_connection_group', details: { connection_id: opsConnection.connectionId } },
      ],
    });
    expect(byLink.member_session.roles).not.toContain('admin');
    expect(jwtRoles(byLink.session_jwt)).not.toContain('admin');
    expect(await verdicts(byLink)).toEqual({
      browser: '403 unauthorized_action',
      management: '403 session_authorization_error',
      check: '403 session_authorization_error',
    });
    // Refreshing and the host's authentication answer the same roles.
    const refreshed = expectOk(
      await h.call(ENDPOINTS.sessionsAuthenticate, { token: byLink.session_token, body: {} }),
    );
    expect(refreshed.member_session.roles).not.toContain('admin');
    expect(jwtRoles(refreshed.session_jwt)).not.toContain('admin');
    const forHost = expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_jwt: byLink.session_jwt } }),
    );
    expect(forHost.member_session.roles).not.toContain('admin');
  });

  it('do not hold in a session signed in with another connection of the organization', async () => {
    await ssoSignIn(opsConnection, 'otto@acme.test', ['ops']);
    const other = await ssoSignIn(plainConnection, 'otto@acme.test', ['ops']);
    expect(other.roles).not.toContain('admin');
    expect(jwtRoles(other.session_jwt)).not.toContain('admin');
    expect(await verdicts(other)).toEqual({
      browser: '403 unauthorized_action',
      management: '403 session_authorization_error',
      check: '403 session_authorization_error',
    });
    // Signing in with the other connection kept the first one's roles for its own sessions.
    const again = await ssoSignIn(opsConnection, 'otto@acme.test', ['ops']);
    expect(again.roles).toContain('admin');
  });

  it('follow the groups of the latest sign-in with that connection', async () => {
    await ssoSignIn(opsConnection, 'pia@acme.test', ['ops']);
    const left = await ssoSignIn(opsConnection, 'pia@acme.test', ['everyone']);
    expect(left.roles).not.toContain('admin');
    expect(await verdicts(left)).toMatchObject({ check: '403 session_authorization_error' });
  });

  it('are recorded once when the member signs in through the connection twice at the same time', async () => {
    const twin = await h.addMember('twin@acme.test');
    const posts = await Promise.all([
      idpAnswer(opsConnection, 'twin@acme.test', ['ops']),
      idpAnswer(opsConnection, 'twin@acme.test', ['ops']),
    ]);
    const answers = await Promise.all(posts.map((post) => post()));
    expect(answers.map((a) => a.status)).toEqual([302, 302]);
    for (const answer of answers) {
      expect((await redeem(answer.location)).roles).toContain('admin');
    }
    const member = expectOk(
      await h.call(ENDPOINTS.getMember, {
        params: { organization_id: h.org.organization_id, member_id: twin.member_id },
      }),
    );
    expect(member.member.roles.filter((r) => r.role_id === 'admin')).toEqual([
      {
        role_id: 'admin',
        sources: [
          { type: 'sso_connection_group', details: { connection_id: opsConnection.connectionId } },
        ],
      },
    ]);
  });

  it('leave explicit roles to every session, whatever it signed in with', async () => {
    const member = await h.addMember('root@acme.test', ['admin']);
    expect(member.roles.map((r) => r.role_id)).toContain('admin');
    const byLink = await h.login('root@acme.test');
    expect(byLink.member_session.roles).toContain('admin');
    expect(await verdicts(byLink)).toEqual({
      browser: 'allowed',
      management: 'allowed',
      check: 'allowed',
    });
  });
});
