// Finishing a sign-in with an IST (§9): the IST is spent before the session exists, so concurrent calls get one session.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type CallResponse, type Harness } from '../test/harness.js';

const CALLS = 20;
const PASSWORD = 'Quartz-Lantern-Orbit-42';

let h: Harness;
beforeAll(async () => {
  // Concurrent right passwords from one address would otherwise meet the guessing throttle.
  h = await startHarness({ config: { passwordThrottle: { freeAttempts: 100 } } });
});
afterAll(async () => {
  await h.close();
});

/** An unbound (discovery) IST of an address. */
async function discoveryIst(email: string): Promise<string> {
  await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: email } });
  const res = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
    body: { discovery_magic_links_token: await h.lastToken(email) },
  });
  expect(res.status).toBe(200);
  return expectOk(res).intermediate_session_token;
}

/** How many calls answered each status and error type, e.g. `{ '200': 1, '404 …': 19 }`. */
function tally(responses: CallResponse<unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const res of responses) {
    const key = res.status === 200 ? '200' : `${res.status} ${res.error?.error_type}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The stored sessions of the members with an address (in any organization). */
async function sessionsOf(email: string) {
  return h.db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .select(['sessions.id', 'sessions.factors'])
    .where('members.email', '=', email)
    .execute();
}

const race = <T>(call: () => Promise<T>) => Promise.all(Array.from({ length: CALLS }, call));

describe('an IST raced by concurrent calls', () => {
  it('enters an organization once: one session, the others 404', async () => {
    const ist = await discoveryIst('newcomer@acme.test');
    const responses = await race(() =>
      h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: ist,
          organization_id: h.org.organization_id,
          session_duration_minutes: 60,
        },
      }),
    );
    expect(tally(responses)).toEqual({
      '200': 1,
      '404 intermediate_session_not_found': CALLS - 1,
    });
    expect(await sessionsOf('newcomer@acme.test')).toHaveLength(1);
    const members = await h.db
      .selectFrom('members')
      .select('id')
      .where('email', '=', 'newcomer@acme.test')
      .execute();
    expect(members).toHaveLength(1);
  });

  it('creates one organization: the losers leave nothing behind', async () => {
    const ist = await discoveryIst('founder@startup.test');
    const responses = await race(() =>
      h.call(ENDPOINTS.discoveryOrganizationsCreate, {
        body: { intermediate_session_token: ist, session_duration_minutes: 60 },
      }),
    );
    expect(tally(responses)).toEqual({
      '200': 1,
      '404 intermediate_session_not_found': CALLS - 1,
    });
    expect(await sessionsOf('founder@startup.test')).toHaveLength(1);
    const orgs = await h.db
      .selectFrom('organizations')
      .select('slug')
      .where('project_id', '=', h.project.project_id)
      .where('slug', 'like', 'startup%')
      .execute();
    expect(orgs).toEqual([{ slug: 'startup' }]);
  });

  it("counts the IST's factors in one primary sign-in only", async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'pia@acme.test',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const ist = await discoveryIst('pia@acme.test');
    const responses = await race(() =>
      h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: 'pia@acme.test',
          password: PASSWORD,
          intermediate_session_token: ist,
        },
      }),
    );
    // A call that looked the IST up while it was live and lost it fails; one that came after
    // the winner finds it spent and ignores it (§9).
    for (const res of responses) {
      expect([200, 404]).toContain(res.status);
      if (res.status === 404) expect(res.error?.error_type).toBe('intermediate_session_not_found');
    }
    const sessions = await sessionsOf('pia@acme.test');
    expect(sessions).toHaveLength(responses.filter((r) => r.status === 200).length);
    expect(sessions.filter((s) => s.factors.includes('"magic_link"'))).toHaveLength(1);
  });
});
