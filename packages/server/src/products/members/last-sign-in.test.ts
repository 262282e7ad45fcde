// A member's last sign-in (`last_sign_in_at`, docs/protocol.md §5): recorded on the member when a
// sign-in into the organization completes with a full session, by any method, and answered on
// the member object of both APIs; never by a session check, a pending MFA step or another
// organization's sign-in; kept when sessions are revoked or purged. Two sign-ins at the same time
// keep the later (SQLite and PostgreSQL).
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../store/housekeeping.js';
import { recordSignIn } from '../../tenancy/members/store-sign-ins.js';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PASSWORD = 'Quartz-Lantern-Orbit-42';

let h: Harness;
let boss: string;

beforeAll(async () => {
  h = await startHarness();
  await h.addMember('boss@acme.test', ['admin']);
  boss = (await h.login('boss@acme.test')).session_token;
});
afterAll(async () => {
  await h?.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

/** The member of an address as the admin's member search answers it. */
async function listed(email: string) {
  const page = expectOk(
    await h.call(ENDPOINTS.organizationMembersSearch, {
      token: boss,
      body: {
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'member_emails', filter_value: [email] }],
        },
      },
    }),
  );
  const [member] = page.members;
  if (!member) throw new Error(`${email} is not listed`);
  return member;
}

/** The same member as the management API answers it. */
async function fromBackend(memberId: string, organizationId = h.org.organization_id) {
  const res = await h.call(ENDPOINTS.getMember, {
    params: { organization_id: organizationId, member_id: memberId },
  });
  return expectOk(res).member;
}

describe('last_sign_in_at', () => {
  it('is null for a member who never signed in, on both APIs', async () => {
    const grace = await h.addMember('grace@acme.test');
    expect((await listed('grace@acme.test')).last_sign_in_at).toBeNull();
    expect((await fromBackend(grace.member_id)).last_sign_in_at).toBeNull();
  });

  it('is the time of a completed sign-in, in the answer, the list and the management API', async () => {
    h.clock.advance(MINUTE);
    const at = iso(h.clock.now);
    const login = await h.login();
    expect(login.member.last_sign_in_at).toBe(at);
    expect((await listed('ada@acme.test')).last_sign_in_at).toBe(at);
    expect((await fromBackend(login.member_id)).last_sign_in_at).toBe(at);
  });

  it('does not move on session checks, refreshes with a duration, or the management check', async () => {
    const login = await h.login();
    const at = login.member.last_sign_in_at;
    h.clock.advance(10 * MINUTE);
    const refreshed = expectOk(
      await h.call(ENDPOINTS.sessionsAuthenticate, {
        body: { session_duration_minutes: 120 },
        token: login.session_token,
      }),
    );
    expect(refreshed.member.last_sign_in_at).toBe(at);
    expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_token: login.session_token } }),
    );
    expect((await listed('ada@acme.test')).last_sign_in_at).toBe(at);
  });

  it('is recorded by a password sign-in and by a discovery IST exchange', async () => {
    const { member_id } = await h.addMember('pat@acme.test');
    expectOk(
      await h.call(ENDPOINTS.setMemberPassword, {
        params: { organization_id: h.org.organization_id, member_id },
        body: { password: PASSWORD },
      }),
    );
    h.clock.advance(MINUTE);
    const byPassword = expectSession(
      await h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: 'pat@acme.test',
          password: PASSWORD,
          session_duration_minutes: 60,
        },
      }),
    );
    expect(byPassword.member.last_sign_in_at).toBe(iso(h.clock.now));

    h.clock.advance(MINUTE);
    await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: 'pat@acme.test' } });
    const discovered = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken('pat@acme.test') },
      }),
    );
    expectSession(
      await h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: discovered.intermediate_session_token,
          organization_id: h.org.organization_id,
          session_duration_minutes: 60,
        },
      }),
    );
    expect((await listed('pat@acme.test')).last_sign_in_at).toBe(iso(h.clock.now));
  });

  it('is not recorded while a second factor is still due', async () => {
    const strict = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Strict',
      organization_slug: 'strict-sign-in',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    const ivy = await h.addMember('ivy@acme.test', undefined, strict.organization_id);
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ivy@acme.test', organization_id: strict.organization_id },
    });
    const pending = expectOk(
      await h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: {
          magic_links_token: await h.lastToken('ivy@acme.test'),
          session_duration_minutes: 60,
        },
      }),
    );
    expect(pending.member_authenticated).toBe(false);
    expect(pending.member.last_sign_in_at).toBeNull();
    expect((await fromBackend(ivy.member_id, strict.organization_id)).last_sign_in_at).toBeNull();
  });

  it("is each organization's own: a sign-in elsewhere with the same address leaves it", async () => {
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Other',
      organization_slug: 'other-sign-in',
    });
    await h.addMember('ada@acme.test', undefined, other.organization_id);
    const before = (await listed('ada@acme.test')).last_sign_in_at;
    h.clock.advance(MINUTE);
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: other.organization_id },
    });
    const elsewhere = expectSession(
      await h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: {
          magic_links_token: await h.lastToken('ada@acme.test'),
          session_duration_minutes: 60,
        },
      }),
    );
    expect(elsewhere.member.last_sign_in_at).toBe(iso(h.clock.now));
    expect((await listed('ada@acme.test')).last_sign_in_at).toBe(before);
  });

  it('outlives the sessions: revoked, then purged from the database', async () => {
    h.clock.advance(MINUTE);
    const login = await h.login('grace@acme.test');
    const at = iso(h.clock.now);
    expectOk(await h.call(ENDPOINTS.revokeSessions, { body: { member_id: login.member_id } }));
    h.clock.advance(60 * DAY);
    await purgeExpired(h.db, h.clock.now);
    const left = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('member_id', '=', login.member_id)
      .execute();
    expect(left).toEqual([]);
    boss = (await h.login('boss@acme.test')).session_token;
    expect((await listed('grace@acme.test')).last_sign_in_at).toBe(at);
  });

  it('keeps the later of two sign-ins at the same time, and leaves updated_at alone', async () => {
    // A first sign-in may verify the address, which is an edit: this test starts after one.
    await h.login();
    const before = await listed('ada@acme.test');
    h.clock.advance(MINUTE);
    // Two links first, each read before the next is sent, then both spent at once.
    const tokens: string[] = [];
    for (const _ of [1, 2]) {
      expectOk(
        await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
          body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
        }),
      );
      tokens.push(await h.lastToken('ada@acme.test'));
    }
    const logins = await Promise.all(
      tokens.map((token) =>
        h.call(ENDPOINTS.magicLinksAuthenticate, { body: { magic_links_token: token } }),
      ),
    );
    expect(logins.map((l) => expectOk(l).member_authenticated)).toEqual([true, true]);
    const after = await listed('ada@acme.test');
    expect(after.last_sign_in_at).toBe(iso(h.clock.now));
    // A sign-in is not an edit: an admin's change loaded before it still applies.
    expect(after.updated_at).toBe(before.updated_at);
    // One that commits late with an earlier time does not move it back.
    await recordSignIn(h.db, after.member_id, iso(h.clock.now - MINUTE));
    expect((await listed('ada@acme.test')).last_sign_in_at).toBe(iso(h.clock.now));
  });
});
