// The management API's session calls as the provider's backend SDK makes them: sessions.get,
// authenticate (session_token among the fields), revoke by member_session_id, JWT or member, and
// exchange into another organization of the same address, with another project's ids refused.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let elsewhere: string;
beforeAll(async () => {
  h = await startHarness();
  const other = await h.admin.createProject({ name: 'Elsewhere' });
  elsewhere = basic(other.project_id, other.secret);
});
afterAll(async () => {
  await h.close();
});

const seeded = () => ({ organization_id: h.org.organization_id, member_id: h.member.member_id });
const listSessions = (
  query: { organization_id: string; member_id: string },
  authorization?: string,
) =>
  h.request(`${ENDPOINTS.backendSessionsGet.path}?${new URLSearchParams(query).toString()}`, {
    method: 'GET',
    authorization: authorization ?? basic(h.project.project_id, h.project.secret),
    origin: null,
  });

/** One address in a second organization of the project, with MFA as told. */
async function secondMembership(slug: string, mfa: 'OPTIONAL' | 'REQUIRED_FOR_ALL') {
  const project = h.project.project_id;
  const org = await h.admin.createOrganization(project, {
    organization_name: slug,
    organization_slug: slug,
  });
  await h.admin.updateOrganization(project, org.organization_id, { mfa_policy: mfa });
  const member = await h.admin.createMember(project, org.organization_id, {
    email_address: h.member.email_address,
  });
  return { org, member };
}

describe('management sessions.get', () => {
  it("lists the member's live sessions, newest first, and not the revoked ones", async () => {
    const first = await h.login(h.member.email_address);
    const second = await h.login(h.member.email_address);
    await h.admin.revokeSessions(h.project.project_id, {
      session_id: first.member_session.member_session_id,
    });
    const res = await listSessions(seeded());
    expect(res.status).toBe(200);
    const { member_sessions } = res.body as { member_sessions: { member_session_id: string }[] };
    const ids = member_sessions.map((s) => s.member_session_id);
    expect(ids[0]).toBe(second.member_session.member_session_id);
    expect(ids).not.toContain(first.member_session.member_session_id);
    expect(member_sessions[0]).toMatchObject({
      member_id: h.member.member_id,
      organization_id: h.org.organization_id,
      organization_slug: h.org.organization_slug,
    });
  });

  it('answers 404 for a member of another organization or project, 400 without the query', async () => {
    const { org } = await secondMembership('sessions-get-other', 'OPTIONAL');
    const wrongOrg = await listSessions({ ...seeded(), organization_id: org.organization_id });
    expect([wrongOrg.status, wrongOrg.error?.error_type]).toEqual([404, 'member_not_found']);
    const otherProject = await listSessions(seeded(), elsewhere);
    expect(otherProject.status).toBe(404);
    const bare = await h.request(ENDPOINTS.backendSessionsGet.path, {
      method: 'GET',
      authorization: basic(h.project.project_id, h.project.secret),
      origin: null,
    });
    expect([bare.status, bare.error?.error_type]).toEqual([400, 'invalid_request']);
  });
});

describe('management sessions.authenticate', () => {
  it('answers session_token beside the JWT; by a JWT alone it is empty', async () => {
    const login = await h.login(h.member.email_address);
    const byToken = expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_token: login.session_token } }),
    );
    expect(byToken.session_token).toBe(login.session_token);
    expect(byToken.member_session.member_session_id).toBe(login.member_session.member_session_id);
    const byJwt = expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_jwt: login.session_jwt } }),
    );
    expect(byJwt.session_token).toBe('');
    expect(byJwt.member.member_id).toBe(h.member.member_id);
  });
});

describe('management sessions.revoke', () => {
  const revoke = (body: Record<string, string>, authorization?: string) =>
    h.request(ENDPOINTS.revokeSessions.path, {
      method: 'POST',
      body,
      authorization: authorization ?? basic(h.project.project_id, h.project.secret),
      origin: null,
    });
  const live = (token: string) =>
    h.call(ENDPOINTS.authenticateSession, { body: { session_token: token } });

  it('ends one session by member_session_id, another by its JWT', async () => {
    const a = await h.login(h.member.email_address);
    const b = await h.login(h.member.email_address);
    const byId = await revoke({ member_session_id: a.member_session.member_session_id });
    expect(byId.status).toBe(200);
    expect((await live(a.session_token)).error?.error_type).toBe('session_not_found');
    expect((await live(b.session_token)).status).toBe(200);
    expect((await revoke({ session_jwt: b.session_jwt })).status).toBe(200);
    expect((await live(b.session_token)).error?.error_type).toBe('session_not_found');
  });

  it('ends every session of a member by member_id', async () => {
    const { org, member } = await secondMembership('sessions-revoke-all', 'OPTIONAL');
    const a = await h.login(h.member.email_address);
    const moved = expectSession(
      await h.call(ENDPOINTS.backendSessionsExchange, {
        body: { organization_id: org.organization_id, session_token: a.session_token },
      }),
    );
    expect((await revoke({ member_id: member.member_id })).status).toBe(200);
    expect((await live(moved.session_token)).error?.error_type).toBe('session_not_found');
    // The same address in the other organization is another member: untouched.
    expect((await live(a.session_token)).status).toBe(200);
  });

  it("refuses another project's session id with 404, and two targets at once with 400", async () => {
    const a = await h.login(h.member.email_address);
    const foreign = await revoke(
      { member_session_id: a.member_session.member_session_id },
      elsewhere,
    );
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'session_not_found']);
    expect((await live(a.session_token)).status).toBe(200);
    const both = await revoke({
      member_session_id: a.member_session.member_session_id,
      member_id: h.member.member_id,
    });
    expect([both.status, both.error?.error_type]).toEqual([400, 'invalid_request']);
  });
});

describe('management sessions.exchange', () => {
  it('moves a session into another organization of the same address: a new session there', async () => {
    const { org, member } = await secondMembership('exchange-open', 'OPTIONAL');
    const login = await h.login(h.member.email_address);
    const moved = expectSession(
      await h.call(ENDPOINTS.backendSessionsExchange, {
        body: { organization_id: org.organization_id, session_jwt: login.session_jwt },
      }),
    );
    expect(moved.member_id).toBe(member.member_id);
    expect(moved.organization.organization_id).toBe(org.organization_id);
    expect(moved.session_token).not.toBe(login.session_token);
    expect(moved.member_session.authentication_factors.map((f) => f.delivery_method)).toEqual([
      'email',
    ]);
  });

  it('stops at MFA where the organization requires it: an IST, no session', async () => {
    const { org, member } = await secondMembership('exchange-mfa', 'REQUIRED_FOR_ALL');
    const login = await h.login(h.member.email_address);
    const res = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { organization_id: org.organization_id, session_token: login.session_token },
    });
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(false);
    expect(data.member_id).toBe(member.member_id);
    expect(data.session_token).toBe('');
    expect(data.intermediate_session_token).not.toBe('');
  });

  it('refuses an organization without the address, a dead or foreign session, and custom claims', async () => {
    const stranger = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Exchange stranger',
      organization_slug: 'exchange-stranger',
    });
    const login = await h.login(h.member.email_address);
    const notMember = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { organization_id: stranger.organization_id, session_token: login.session_token },
    });
    expect([notMember.status, notMember.error?.error_type]).toEqual([404, 'member_not_found']);

    const { org } = await secondMembership('exchange-refusals', 'OPTIONAL');
    const dead = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { organization_id: org.organization_id, session_token: 'not-a-session-token' },
    });
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
    const foreign = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { organization_id: org.organization_id, session_token: login.session_token },
      authorization: elsewhere,
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'session_not_found']);
    const claims = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: {
        organization_id: org.organization_id,
        session_token: login.session_token,
        session_custom_claims: { tier: 'gold' },
      },
    });
    expect([claims.status, claims.error?.error_type]).toEqual([400, 'invalid_request']);
    const ownByJwt = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { organization_id: h.org.organization_id, session_jwt: login.session_jwt },
    });
    expect([ownByJwt.status, ownByJwt.error?.error_type]).toEqual([400, 'invalid_request']);
  });
});
