// Ending sessions: every password change ends the member's other sessions and ISTs; backends revoke by id, token or member.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from '../test/harness.js';
import { magicLogin, mfaOrganization } from '../test/mfa.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const NEW_PASSWORD = 'Velvet-Harbor-Compass-77';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const revoke = (body: RequestOf<typeof ENDPOINTS.revokeSessions>) =>
  h.call(ENDPOINTS.revokeSessions, { body });

/** Whether a session token still refreshes. */
async function alive(token: string): Promise<boolean> {
  const res = await h.call(ENDPOINTS.sessionsAuthenticate, { body: {}, token });
  if (res.status !== 200) expect(res.error?.error_type).toBe('session_not_found');
  return res.status === 200;
}

/** Whether an IST is still usable (listing organizations does not spend it). */
async function istAlive(ist: string): Promise<boolean> {
  const res = await h.call(ENDPOINTS.discoveryOrganizations, {
    body: { intermediate_session_token: ist },
  });
  if (res.status !== 200) expect(res.error?.error_type).toBe('intermediate_session_not_found');
  return res.status === 200;
}

/** An unbound (discovery) IST of an address. */
async function discoveryIst(email: string): Promise<string> {
  await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: email } });
  const res = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
    body: { discovery_magic_links_token: await h.lastToken(email) },
  });
  expect(res.status).toBe(200);
  return expectOk(res).intermediate_session_token;
}

/** A fresh member of the seeded organization with a password. */
async function memberWithPassword(email: string) {
  const created = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: email,
  });
  return h.admin.setMemberPassword(h.project.project_id, created.member_id, { password: PASSWORD });
}

const passwordLogin = (email: string, password = PASSWORD) =>
  h.call(ENDPOINTS.passwordsAuthenticate, {
    body: { organization_id: h.org.organization_id, email_address: email, password },
  });

describe('a password change', () => {
  it("by session keeps the caller's session and ends the member's others and its ISTs", async () => {
    await memberWithPassword('rita@acme.test');
    const mine = await h.login('rita@acme.test');
    const stolen = await h.login('rita@acme.test');
    const ist = await discoveryIst('rita@acme.test');
    const bystander = await h.login();
    expect(await istAlive(ist)).toBe(true);

    const res = await h.call(ENDPOINTS.passwordsResetSession, {
      body: { password: NEW_PASSWORD },
      token: mine.session_token,
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).session_token).toBe(mine.session_token);
    expect(await alive(mine.session_token)).toBe(true);
    expect(await alive(stolen.session_token)).toBe(false);
    expect(await istAlive(ist)).toBe(false);
    // Other members keep theirs.
    expect(await alive(bystander.session_token)).toBe(true);
  });

  it('by reset link ends every session, the one sent with it too, and signs in anew', async () => {
    await memberWithPassword('sam@acme.test');
    const stolen = await h.login('sam@acme.test');
    const sent = await h.login('sam@acme.test');
    const started = await h.call(ENDPOINTS.passwordsResetStart, {
      body: { organization_id: h.org.organization_id, email_address: 'sam@acme.test' },
    });
    expect(started.status).toBe(200);
    const res = await h.call(ENDPOINTS.passwordsResetByEmail, {
      body: {
        password_reset_token: await h.lastToken('sam@acme.test'),
        password: NEW_PASSWORD,
        session_duration_minutes: 60,
      },
      token: sent.session_token,
    });
    expect(res.status).toBe(200);
    const fresh = expectSession(res);
    expect(fresh.session_token).not.toBe(sent.session_token);
    expect(fresh.member_session.member_session_id).not.toBe(sent.member_session.member_session_id);
    expect(await alive(stolen.session_token)).toBe(false);
    expect(await alive(sent.session_token)).toBe(false);
    expect(await alive(fresh.session_token)).toBe(true);
  });

  it('by existing password ends every session and signs in anew', async () => {
    await memberWithPassword('tess@acme.test');
    const stolen = expectOk(await passwordLogin('tess@acme.test'));
    const ist = await discoveryIst('tess@acme.test');
    const res = await h.call(ENDPOINTS.passwordsResetExisting, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'tess@acme.test',
        existing_password: PASSWORD,
        new_password: NEW_PASSWORD,
      },
      token: stolen.session_token,
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).session_token).not.toBe(stolen.session_token);
    expect(await alive(stolen.session_token)).toBe(false);
    expect(await istAlive(ist)).toBe(false);
    expect(await alive(expectOk(res).session_token)).toBe(true);
  });

  it('by the management API ends every session and the ISTs waiting for MFA', async () => {
    const { org, member, email } = await mfaOrganization(h, 'vault');
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const pending = await magicLogin(h, email, org.organization_id);
    expect(pending.member_authenticated).toBe(false);
    expect(await istAlive(pending.intermediate_session_token)).toBe(true);
    const other = await memberWithPassword('uma@acme.test');
    const stolen = await h.login('uma@acme.test');

    for (const [orgId, memberId] of [
      [org.organization_id, member.member_id],
      [h.org.organization_id, other.member_id],
    ] as const) {
      const res = await h.call(ENDPOINTS.setMemberPassword, {
        params: { organization_id: orgId, member_id: memberId },
        body: { password: NEW_PASSWORD },
      });
      expect(res.status).toBe(200);
    }
    expect(await istAlive(pending.intermediate_session_token)).toBe(false);
    expect(await alive(stolen.session_token)).toBe(false);
    expect((await passwordLogin('uma@acme.test', NEW_PASSWORD)).status).toBe(200);
  });
});

describe('POST /v1/b2b/sessions/revoke', () => {
  it('revokes one session by id or by token, and 404s a dead or foreign one', async () => {
    const a = await h.login();
    const b = await h.login();
    const byId = await revoke({ session_id: a.member_session.member_session_id });
    expect(byId.status).toBe(200);
    expect(expectOk(byId)).toMatchObject({
      member_id: h.member.member_id,
      revoked_session_ids: [a.member_session.member_session_id],
    });
    expect(await alive(a.session_token)).toBe(false);
    expect(await alive(b.session_token)).toBe(true);

    const other = await h.admin.createProject({ name: 'Other' });
    const foreign = await h.call(ENDPOINTS.revokeSessions, {
      authorization: basic(other.project_id, other.secret),
      body: { session_token: b.session_token },
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'session_not_found']);
    expect(await alive(b.session_token)).toBe(true);

    const byToken = await revoke({ session_token: b.session_token });
    expect(expectOk(byToken).revoked_session_ids).toEqual([b.member_session.member_session_id]);
    expect(await alive(b.session_token)).toBe(false);
    // The JWT of a revoked session no longer authenticates with the backend either.
    const jwt = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_jwt: b.session_jwt },
    });
    expect(jwt.error?.error_type).toBe('session_not_found');

    const again = await revoke({ session_token: b.session_token });
    expect([again.status, again.error?.error_type]).toEqual([404, 'session_not_found']);
    const unknown = await revoke({ session_id: 'member-session-test-nope' });
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it("revokes all of a member's sessions and ISTs by member_id", async () => {
    const created = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'vera@acme.test',
    });
    const sessions = [await h.login('vera@acme.test'), await h.login('vera@acme.test')];
    const ist = await discoveryIst('vera@acme.test');
    const bystander = await h.login();
    const res = await revoke({ member_id: created.member_id });
    expect(res.status).toBe(200);
    expect(expectOk(res).member_id).toBe(created.member_id);
    expect(expectOk(res).revoked_session_ids).toEqual(
      sessions.map((s) => s.member_session.member_session_id).sort(),
    );
    for (const s of sessions) expect(await alive(s.session_token)).toBe(false);
    expect(await istAlive(ist)).toBe(false);
    expect(await alive(bystander.session_token)).toBe(true);

    const none = await revoke({ member_id: created.member_id });
    expect(expectOk(none).revoked_session_ids).toEqual([]);
    const unknown = await revoke({ member_id: 'member-test-nope' });
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'member_not_found']);
  });

  it('needs the secret key and exactly one of session_id, session_token, member_id', async () => {
    const login = await h.login();
    const anonymous = await h.call(ENDPOINTS.revokeSessions, {
      authorization: null,
      body: { session_token: login.session_token },
    });
    expect([anonymous.status, anonymous.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    for (const body of [
      {},
      { session_token: login.session_token, member_id: login.member_id },
      { session_id: '' },
    ]) {
      // Each passes the type (every field is optional) but not the one-of refinement.
      const res = await revoke(body);
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
      expect(res.error?.body?.length).toBeGreaterThan(0);
    }
    expect(await alive(login.session_token)).toBe(true);
  });

  it('refuses tokens of the wrong kind as the secret key', async () => {
    const login = await h.login();
    for (const secret of [h.project.public_token, login.session_token]) {
      const res = await h.call(ENDPOINTS.revokeSessions, {
        authorization: basic(h.project.project_id, secret),
        body: { session_token: login.session_token },
      });
      expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    }
    expect(await alive(login.session_token)).toBe(true);
  });

  it('answers concurrent revokes of one member cleanly and ends every session', async () => {
    const logins = [await h.login(), await h.login(), await h.login()];
    const results = await Promise.all(
      Array.from({ length: 20 }, () => revoke({ member_id: h.member.member_id })),
    );
    for (const res of results) expect(res.status).toBe(200);
    const ended = new Set(results.flatMap((res) => expectOk(res).revoked_session_ids));
    for (const login of logins) {
      expect(ended.has(login.member_session.member_session_id)).toBe(true);
      expect(await alive(login.session_token)).toBe(false);
    }
  });
});
