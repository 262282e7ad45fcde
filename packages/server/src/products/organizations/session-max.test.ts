// An organization's session limit (`session_max_duration_minutes`, docs/protocol.md §5): set by
// its admins through the member-session update, it holds every session of its members to
// minutes from their start at sign-in, refresh, IST exchange and session exchange, and a lowered
// limit ends live sessions at their next check. Two admins saving at the same time: one wins
// (SQLite and PostgreSQL).
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

const MINUTE = 60_000;
const YEAR_MINUTES = 527_040;

let h: Harness;
let boss: string;

beforeAll(async () => {
  h = await startHarness();
  await h.addMember('boss@acme.test', ['admin']);
});
afterAll(async () => {
  await h?.close();
});

type Patch = RequestOf<typeof ENDPOINTS.organizationUpdateMe>;

async function current() {
  return expectOk(await h.call(ENDPOINTS.organizationMe, { token: boss })).organization;
}

/** Sets the limit as the admin does, with the precondition the portal sends. */
async function setLimit(minutes: number | null) {
  boss = (await h.login('boss@acme.test')).session_token;
  const { updated_at } = await current();
  const res = await h.call(ENDPOINTS.organizationUpdateMe, {
    token: boss,
    body: { session_max_duration_minutes: minutes, updated_at },
  });
  return expectOk(res).organization;
}

/** Ada's sign-in by magic link, asking for `minutes`. */
async function signIn(minutes: number, email = 'ada@acme.test') {
  await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
    body: { email_address: email, organization_id: h.org.organization_id },
  });
  const res = await h.call(ENDPOINTS.magicLinksAuthenticate, {
    body: { magic_links_token: await h.lastToken(email), session_duration_minutes: minutes },
  });
  return expectSession(res);
}

const refresh = (token: string, minutes?: number) =>
  h.call(ENDPOINTS.sessionsAuthenticate, {
    body: minutes === undefined ? {} : { session_duration_minutes: minutes },
    token,
  });

const lifetimeOf = (session: { started_at: string; expires_at: string }) =>
  (Date.parse(session.expires_at) - Date.parse(session.started_at)) / MINUTE;

describe('setting the limit', () => {
  it('is answered on the organization of both APIs, and null takes it away', async () => {
    expect((await setLimit(30)).session_max_duration_minutes).toBe(30);
    expect((await current()).session_max_duration_minutes).toBe(30);
    const backend = expectOk(
      await h.call(ENDPOINTS.getOrganization, {
        params: { organization_id: h.org.organization_id },
      }),
    );
    expect(backend.organization.session_max_duration_minutes).toBe(30);
    expect((await setLimit(null)).session_max_duration_minutes).toBeNull();
  });

  it('refuses values out of bounds with 400 invalid_request and changes nothing', async () => {
    await setLimit(45);
    const { updated_at } = await current();
    const bad: unknown[] = [0, 4, -5, 1.5, 527_041, '60', true, {}];
    for (const value of bad) {
      const res = await h.sdk('/b2b/organizations/me', {
        method: 'PUT',
        token: boss,
        body: { session_max_duration_minutes: value, updated_at },
      });
      expect({ value, status: res.status, type: res.error?.error_type }).toEqual({
        value,
        status: 400,
        type: 'invalid_request',
      });
    }
    // Within the schema's bounds but past the project's 30-day lifetime, which bounds it.
    const tooLong = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: boss,
      body: { session_max_duration_minutes: 43_201, updated_at },
    });
    expect([tooLong.status, tooLong.error?.error_type]).toEqual([400, 'invalid_request']);
    expect(tooLong.error?.error_message).toMatch(/at most 43200/);
    const after = await current();
    expect([after.session_max_duration_minutes, after.updated_at]).toEqual([45, updated_at]);
  });

  it('refuses a member without stytch.organization update, and a stale updated_at', async () => {
    await setLimit(45);
    const ada = (await h.login()).session_token;
    const { updated_at } = await current();
    const denied = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: ada,
      body: { session_max_duration_minutes: 60 } satisfies Patch,
    });
    expect(denied.status).toBe(403);
    expect(denied.error?.error_type).toBe('unauthorized_action');
    const stale = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: boss,
      body: { session_max_duration_minutes: 10, updated_at: '2000-01-01T00:00:00.000Z' },
    });
    expect([stale.status, stale.error?.error_type]).toEqual([409, 'stale_update']);
    expect(await current()).toMatchObject({ session_max_duration_minutes: 45, updated_at });
  });

  it("refuses another organization's admin, by the management API with their session", async () => {
    const beta = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Beta',
      organization_slug: 'beta-limit',
    });
    await setLimit(null);
    const res = await h.call(ENDPOINTS.updateOrganization, {
      params: { organization_id: beta.organization_id },
      body: { session_max_duration_minutes: 5 },
      headers: { 'X-Stytch-Member-Session': boss },
    });
    expect(res.status).toBe(403);
    const after = expectOk(
      await h.call(ENDPOINTS.getOrganization, {
        params: { organization_id: beta.organization_id },
      }),
    );
    expect(after.organization.session_max_duration_minutes).toBeNull();
    // Their own organization, by the same route and session: allowed.
    const own = await h.call(ENDPOINTS.updateOrganization, {
      params: { organization_id: h.org.organization_id },
      body: { session_max_duration_minutes: 20 },
      headers: { 'X-Stytch-Member-Session': boss },
    });
    expect(expectOk(own).organization.session_max_duration_minutes).toBe(20);
  });

  it('lets exactly one of two admins saving at the same time through', async () => {
    await setLimit(null);
    const { updated_at } = await current();
    const answers = await Promise.all(
      [15, 25].map((minutes) =>
        h.call(ENDPOINTS.organizationUpdateMe, {
          token: boss,
          body: { session_max_duration_minutes: minutes, updated_at },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = answers.find((a) => a.ok);
    expect((await current()).session_max_duration_minutes).toBe(
      winner?.data?.organization.session_max_duration_minutes,
    );
  });
});

describe('sessions held to the limit', () => {
  it('clamps a new session, whatever duration the sign-in asks for', async () => {
    await setLimit(30);
    const login = await signIn(YEAR_MINUTES);
    expect(lifetimeOf(login.member_session)).toBe(30);
    const short = await signIn(10);
    expect(lifetimeOf(short.member_session)).toBe(10);
  });

  it('clamps a password sign-in and what the management API answers of the session', async () => {
    await setLimit(30);
    const { member_id } = await h.addMember('pat@acme.test');
    expectOk(
      await h.call(ENDPOINTS.setMemberPassword, {
        params: { organization_id: h.org.organization_id, member_id },
        body: { password: 'Quartz-Lantern-Orbit-42' },
      }),
    );
    const login = expectSession(
      await h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: 'pat@acme.test',
          password: 'Quartz-Lantern-Orbit-42',
          session_duration_minutes: YEAR_MINUTES,
        },
      }),
    );
    expect(lifetimeOf(login.member_session)).toBe(30);
    const backend = expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_token: login.session_token } }),
    );
    expect(lifetimeOf(backend.member_session)).toBe(30);
  });

  it('never lets a refresh with session_duration_minutes pass it, and ends the session there', async () => {
    await setLimit(30);
    const login = await signIn(10);
    const cap = Date.parse(login.member_session.started_at) + 30 * MINUTE;
    h.clock.advance(8 * MINUTE);
    const extended = expectOk(await refresh(login.session_token, YEAR_MINUTES));
    expect(Date.parse(extended.member_session.expires_at)).toBe(cap);
    h.clock.advance(21 * MINUTE);
    expect(
      Date.parse(expectOk(await refresh(login.session_token, 60)).member_session.expires_at),
    ).toBe(cap);
    h.clock.advance(MINUTE);
    const dead = await refresh(login.session_token, YEAR_MINUTES);
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it('ends a live session at its next check once the limit is lowered below its age', async () => {
    await setLimit(null);
    const login = await signIn(YEAR_MINUTES);
    const started = Date.parse(login.member_session.started_at);
    h.clock.advance(20 * MINUTE);
    // Lowered but not yet passed: the next check moves the expiry in.
    await setLimit(60);
    const clamped = expectOk(await refresh(login.session_token));
    expect(Date.parse(clamped.member_session.expires_at)).toBe(started + 60 * MINUTE);
    // Lowered below its age: the next check ends it.
    await setLimit(15);
    const dead = await refresh(login.session_token);
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
    const backend = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: login.session_token },
    });
    expect(backend.status).toBe(404);
  });

  it('clamps a session made by exchanging a discovery IST into the organization', async () => {
    await setLimit(20);
    await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: 'ada@acme.test' } });
    const discovered = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken('ada@acme.test') },
      }),
    );
    const entered = expectSession(
      await h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: discovered.intermediate_session_token,
          organization_id: h.org.organization_id,
          session_duration_minutes: YEAR_MINUTES,
        },
      }),
    );
    expect(lifetimeOf(entered.member_session)).toBe(20);
    expect(Date.parse(entered.member_session.started_at)).toBe(h.clock.now);
  });

  it('holds a session exchanged in from another organization to its start, or refuses it', async () => {
    await setLimit(30);
    const gamma = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Gamma',
      organization_slug: 'gamma-limit',
    });
    await h.addMember('ada@acme.test', undefined, gamma.organization_id);
    const enterAcme = (token: string) =>
      h.call(ENDPOINTS.sessionsExchange, {
        body: { organization_id: h.org.organization_id, session_duration_minutes: YEAR_MINUTES },
        token,
      });
    const inGamma = async () => {
      await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: 'ada@acme.test', organization_id: gamma.organization_id },
      });
      return expectSession(
        await h.call(ENDPOINTS.magicLinksAuthenticate, {
          body: {
            magic_links_token: await h.lastToken('ada@acme.test'),
            session_duration_minutes: YEAR_MINUTES,
          },
        }),
      );
    };
    const fresh = await inGamma();
    h.clock.advance(10 * MINUTE);
    const entered = expectSession(await enterAcme(fresh.session_token));
    expect(entered.member_session.started_at).toBe(fresh.member_session.started_at);
    expect(lifetimeOf(entered.member_session)).toBe(30);

    const old = await inGamma();
    h.clock.advance(31 * MINUTE);
    const refused = await enterAcme(old.session_token);
    expect([refused.status, refused.error?.error_type]).toEqual([403, 'primary_auth_required']);
    // Gamma has no limit of its own: its session lives on.
    expect(lifetimeOf(expectOk(await refresh(old.session_token)).member_session)).toBe(43_200);
  });
});
