// Session lists (docs/protocol.md §7.10): an admin lists and ends their organization's live
// sessions (stytch.member revoke-sessions), every member their own; each session shows the
// browser that started it. Runs on SQLite and PostgreSQL (concurrent revocations included).
import type { ListedSession } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin } from '../../test/mfa.js';

let h: Harness;
let boss: string;
let bossId: string;
let ada: string;
let adaId: string;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

/** Signs in by magic link from a browser with this user agent; the session token. */
async function loginFrom(email: string, userAgent: string): Promise<string> {
  const headers = { 'user-agent': userAgent };
  expectOk(
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: email, organization_id: h.org.organization_id },
      headers,
    }),
  );
  return expectOk(
    await h.call(ENDPOINTS.magicLinksAuthenticate, {
      body: { magic_links_token: await h.lastToken(email), session_duration_minutes: 60 },
      headers,
    }),
  ).session_token;
}

const search = (
  token: string,
  body: { member_id?: string; cursor?: string; limit?: number } = {},
) => h.call(ENDPOINTS.organizationSessionsSearch, { token, body });

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'boss@acme.test',
    roles: ['admin'],
  });
  bossId = admin.member_id;
  boss = await loginFrom('boss@acme.test', FIREFOX);
  ada = await loginFrom('ada@acme.test', 'Ada/1.0');
  adaId = h.member.member_id;
});

afterAll(async () => {
  await h?.close();
});

describe("an admin's view of the organization's sessions", () => {
  it('lists live sessions with member, factors, times and browser, the caller marked', async () => {
    const all = expectOk(await search(boss));
    expect(all.results_metadata.total).toBe(all.member_sessions.length);
    const mine = all.member_sessions.find((s) => s.current);
    expect(mine).toMatchObject({
      member_id: bossId,
      email_address: 'boss@acme.test',
      ip_address: '127.0.0.1',
      user_agent: FIREFOX,
    });
    expect(mine?.authentication_factors[0]?.type).toBe('magic_link');
    expect(mine?.started_at).toMatch(/^\d{4}-/);
    expect(mine?.last_accessed_at).toMatch(/^\d{4}-/);
    const theirs = all.member_sessions.find((s) => s.email_address === 'ada@acme.test');
    expect(theirs).toMatchObject({ user_agent: 'Ada/1.0', current: false });
  });

  it('filters by member and pages through them, most recently used first', async () => {
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      await loginFrom('ada@acme.test', `Ada/${i + 2}.0`);
    }
    const first = expectOk(await search(boss, { member_id: adaId, limit: 2 }));
    expect(first.member_sessions).toHaveLength(2);
    expect(first.member_sessions.map((s) => s.user_agent)).toEqual(['Ada/4.0', 'Ada/3.0']);
    expect(first.results_metadata.total).toBe(4);
    const next = expectOk(
      await search(boss, {
        member_id: adaId,
        limit: 2,
        cursor: first.results_metadata.next_cursor!,
      }),
    );
    expect(next.member_sessions.map((s) => s.user_agent)).toEqual(['Ada/2.0', 'Ada/1.0']);
    expect(next.results_metadata.next_cursor).toBeNull();
  });

  it('ends one session, then all of a member’s, and lists them no more', async () => {
    const extra = await loginFrom('ada@acme.test', 'Ada/extra');
    const listed = expectOk(await search(boss, { member_id: adaId })).member_sessions;
    const target = listed.find((s) => s.user_agent === 'Ada/extra')!;
    const one = expectOk(
      await h.call(ENDPOINTS.organizationSessionsRevoke, {
        token: boss,
        body: { member_session_id: target.member_session_id },
      }),
    );
    expect(one.revoked_session_ids).toEqual([target.member_session_id]);
    expect(expectError(await h.call(ENDPOINTS.memberMe, { token: extra })).error_type).toBe(
      'session_not_found',
    );
    const again = await h.call(ENDPOINTS.organizationSessionsRevoke, {
      token: boss,
      body: { member_session_id: target.member_session_id },
    });
    expect(expectError(again).error_type).toBe('session_not_found');

    const all = expectOk(
      await h.call(ENDPOINTS.organizationSessionsRevoke, {
        token: boss,
        body: { member_id: adaId },
      }),
    );
    expect(all.revoked_session_ids.length).toBe(listed.length - 1);
    expect(expectOk(await search(boss, { member_id: adaId })).member_sessions).toEqual([]);
    expect((await h.call(ENDPOINTS.memberMe, { token: ada })).status).toBe(404);
    ada = await loginFrom('ada@acme.test', 'Ada/1.0');
  });

  it('ends a session once when asked many times at once', async () => {
    await loginFrom('ada@acme.test', 'Ada/race');
    const target = expectOk(await search(boss, { member_id: adaId })).member_sessions.find(
      (s) => s.user_agent === 'Ada/race',
    )!;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.call(ENDPOINTS.organizationSessionsRevoke, {
          token: boss,
          body: { member_session_id: target.member_session_id },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(4);
  });
});

describe("a member's own sessions", () => {
  it('lists only their own, and lets them end one or all the others', async () => {
    const second = await loginFrom('ada@acme.test', 'Ada/phone');
    const third = await loginFrom('ada@acme.test', 'Ada/tablet');
    const own = expectOk(await h.call(ENDPOINTS.ownSessionsList, { token: ada })).member_sessions;
    expect(own.every((s) => s.email_address === 'ada@acme.test')).toBe(true);
    expect(own.filter((s) => s.current)).toHaveLength(1);
    const phone = own.find((s) => s.user_agent === 'Ada/phone')!;
    expectOk(
      await h.call(ENDPOINTS.ownSessionsRevoke, {
        token: ada,
        body: { member_session_id: phone.member_session_id },
      }),
    );
    expect((await h.call(ENDPOINTS.memberMe, { token: second })).status).toBe(404);
    const others = expectOk(
      await h.call(ENDPOINTS.ownSessionsRevoke, { token: ada, body: { all_others: true } }),
    );
    expect(others.revoked_session_ids.length).toBeGreaterThanOrEqual(1);
    expect((await h.call(ENDPOINTS.memberMe, { token: third })).status).toBe(404);
    // The session that asked stays.
    const left = expectOk(await h.call(ENDPOINTS.ownSessionsList, { token: ada })).member_sessions;
    expect(left.map((s: ListedSession) => s.current)).toEqual([true]);
  });

  it("cannot end another member's session through their own account", async () => {
    const bossSessions = expectOk(await h.call(ENDPOINTS.ownSessionsList, { token: boss }));
    const res = await h.call(ENDPOINTS.ownSessionsRevoke, {
      token: ada,
      body: { member_session_id: bossSessions.member_sessions[0]!.member_session_id },
    });
    expect(res.status).toBe(404);
    expect(expectError(res).error_type).toBe('session_not_found');
    expect((await h.call(ENDPOINTS.memberMe, { token: boss })).status).toBe(200);
  });
});

describe('abuse', () => {
  it('answers 403 to members without stytch.member revoke-sessions, before the body', async () => {
    for (const res of [
      await search(ada),
      await h.call(ENDPOINTS.organizationSessionsRevoke, {
        token: ada,
        body: { member_id: bossId },
      }),
    ]) {
      expect(res.status).toBe(403);
      expect(expectError(res).error_type).toBe('unauthorized_action');
    }
    const bad = await h.sdk('/b2b/organizations/me/sessions/revoke', {
      token: ada,
      body: { nonsense: true },
    });
    expect(bad.status).toBe(403);
    expect((await h.call(ENDPOINTS.memberMe, { token: boss })).status).toBe(200);
  });

  it("answers 404 for another organization's sessions and members, and leaves them live", async () => {
    const theirs = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: {
          organization_name: 'Elsewhere',
          organization_slug: 'elsewhere-sessions',
          email_allowed_domains: ['else.test'],
        },
      }),
    ).organization;
    const them = await h.admin.createMember(h.project.project_id, theirs.organization_id, {
      email_address: 'them@else.test',
      roles: ['admin'],
    });
    const theirToken = (await magicLogin(h, 'them@else.test', theirs.organization_id))
      .session_token;
    const theirSession = expectOk(await h.call(ENDPOINTS.ownSessionsList, { token: theirToken }))
      .member_sessions[0]!;
    expect(expectOk(await search(boss)).member_sessions.map((s) => s.member_id)).not.toContain(
      them.member_id,
    );
    const byMember = await search(boss, { member_id: them.member_id });
    expect(expectError(byMember).error_type).toBe('member_not_found');
    const bySession = await h.call(ENDPOINTS.organizationSessionsRevoke, {
      token: boss,
      body: { member_session_id: theirSession.member_session_id },
    });
    expect(expectError(bySession).error_type).toBe('session_not_found');
    const allOfThem = await h.call(ENDPOINTS.organizationSessionsRevoke, {
      token: boss,
      body: { member_id: them.member_id },
    });
    expect(expectError(allOfThem).error_type).toBe('member_not_found');
    expect((await h.call(ENDPOINTS.memberMe, { token: theirToken })).status).toBe(200);
  });

  it('refuses credentials that are not a session, and bodies naming both or neither target', async () => {
    const secret = basic(h.project.project_id, h.project.secret);
    expect((await h.call(ENDPOINTS.ownSessionsList, { authorization: secret })).status).toBe(401);
    expect((await h.call(ENDPOINTS.organizationSessionsSearch, { body: {} })).status).toBe(401);
    const jwt = (await h.login('boss@acme.test')).session_jwt;
    expect(expectError(await search(jwt)).error_type).toBe('session_not_found');
    for (const body of [{}, { member_id: bossId, member_session_id: 'member-session-x' }]) {
      const res = await h.sdk('/b2b/organizations/me/sessions/revoke', { token: boss, body });
      expect(res.status).toBe(400);
      expect(res.error?.error_type).toBe('invalid_request');
    }
    const both = await h.sdk('/b2b/organizations/members/me/sessions/revoke', {
      token: ada,
      body: { all_others: false },
    });
    expect(both.status).toBe(400);
  });

  it('records no browser for sessions a host backend starts', async () => {
    // The management API's magic-link authenticate acts for the member, from the host's server.
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    const token = await h.lastToken('ada@acme.test');
    const res = await h.call(ENDPOINTS.backendMagicLinksAuthenticate, {
      body: { magic_links_token: token, session_duration_minutes: 60 },
      headers: { 'user-agent': 'HostBackend/1.0' },
    });
    const started = expectOk(res).member_session!.member_session_id;
    const listed = expectOk(await search(boss)).member_sessions.find(
      (s) => s.member_session_id === started,
    );
    expect(listed).toMatchObject({ ip_address: null, user_agent: null });
  });
});
