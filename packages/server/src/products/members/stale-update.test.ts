// Concurrent edits of a member from the member-session API (docs/protocol.md §7.10): a change
// based on an updated_at that has moved since is refused with 409 stale_update and changes
// nothing. Runs on SQLite and PostgreSQL (concurrent updates included).
import type { Member } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let boss: string;
let plain: string;
let target: Member;

beforeAll(async () => {
  h = await startHarness();
  await h.addMember('boss@acme.test', ['admin']);
  boss = (await h.login('boss@acme.test')).session_token;
  plain = (await h.login('ada@acme.test')).session_token;
  target = await h.addMember('target@acme.test');
});

afterAll(async () => {
  await h?.close();
});

async function loaded(memberId = target.member_id): Promise<Member> {
  const found = expectOk(
    await h.call(ENDPOINTS.organizationMembersSearch, {
      token: boss,
      body: {
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'member_ids', filter_value: [memberId] }],
        },
      },
    }),
  ).members;
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('member update with an updated_at precondition', () => {
  it('applies a change based on the stored updated_at and moves it forward', async () => {
    const before = await loaded();
    const after = expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss,
        params: { member_id: target.member_id },
        body: { name: 'Tess', updated_at: before.updated_at },
      }),
    ).member;
    expect(after.name).toBe('Tess');
    // The test clock stands still: the value still moves forward, so a later check can tell.
    expect(after.updated_at > before.updated_at).toBe(true);
    expect((await loaded()).updated_at).toBe(after.updated_at);
  });

  it('refuses a change based on an older updated_at with 409 and changes nothing', async () => {
    const old = await loaded();
    expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss,
        params: { member_id: target.member_id },
        body: { name: 'Renamed meanwhile' },
      }),
    );
    const current = await loaded();
    const stale = await h.call(ENDPOINTS.memberUpdate, {
      token: boss,
      params: { member_id: target.member_id },
      body: { name: 'Overwritten', roles: ['admin'], updated_at: old.updated_at },
    });
    expect(stale.status).toBe(409);
    expect(expectError(stale).error_type).toBe('stale_update');
    expect(await loaded()).toEqual(current);
  });

  it('lets exactly one of concurrent updates from the same loaded screen through', async () => {
    const old = await loaded();
    const answers = await Promise.all(
      ['One', 'Two', 'Three', 'Four'].map((name) =>
        h.call(ENDPOINTS.memberUpdate, {
          token: boss,
          params: { member_id: target.member_id },
          body: { name, updated_at: old.updated_at },
        }),
      ),
    );
    const passed = answers.filter((a) => a.status === 200);
    expect(passed).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(expectError(a).error_type).toBe('stale_update');
    }
    expect((await loaded()).name).toBe(expectOk(passed[0]!).member.name);
  });

  it('holds for a member changing their own name', async () => {
    const me = expectOk(await h.call(ENDPOINTS.memberMe, { token: plain })).member;
    expectOk(
      await h.call(ENDPOINTS.memberUpdateSelf, {
        token: plain,
        body: { name: 'Ada One', updated_at: me.updated_at },
      }),
    );
    const stale = await h.call(ENDPOINTS.memberUpdateSelf, {
      token: plain,
      body: { name: 'Ada Two', updated_at: me.updated_at },
    });
    expect(expectError(stale).error_type).toBe('stale_update');
    expect(expectOk(await h.call(ENDPOINTS.memberMe, { token: plain })).member.name).toBe(
      'Ada One',
    );
  });

  it('checks the credential, the permission and the organization before the precondition', async () => {
    const current = await loaded();
    const denied = await h.call(ENDPOINTS.memberUpdate, {
      token: plain,
      params: { member_id: target.member_id },
      body: { name: 'Nope', updated_at: 'not-the-stored-one' },
    });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const secret = await h.call(ENDPOINTS.memberUpdate, {
      authorization: basic(h.project.project_id, h.project.secret),
      params: { member_id: target.member_id },
      body: { name: 'Nope', updated_at: current.updated_at },
    });
    expect(secret.status).toBe(401);
    const jwt = (await h.login('boss@acme.test')).session_jwt;
    const asJwt = await h.call(ENDPOINTS.memberUpdate, {
      token: jwt,
      params: { member_id: target.member_id },
      body: { name: 'Nope', updated_at: current.updated_at },
    });
    expect(expectError(asJwt).error_type).toBe('session_not_found');
    expect(await loaded()).toEqual(current);

    // Another organization's member is not found, whatever the precondition says, and keeps
    // its updated_at: nothing about it is learnt or touched.
    const theirs = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Neighbours', organization_slug: 'neighbours-member-stale' },
      }),
    ).organization;
    const neighbour = await h.addMember('next@door.test', undefined, theirs.organization_id);
    for (const updated_at of [neighbour.updated_at, 'stale']) {
      const res = await h.call(ENDPOINTS.memberUpdate, {
        token: boss,
        params: { member_id: neighbour.member_id },
        body: { name: 'Pwned', updated_at },
      });
      expect(res.status).toBe(404);
      expect(expectError(res).error_type).toBe('member_not_found');
    }
    const after = expectOk(
      await h.call(ENDPOINTS.getMember, {
        params: { organization_id: theirs.organization_id, member_id: neighbour.member_id },
      }),
    ).member;
    expect(after.name).toBe(neighbour.name);
    expect(after.updated_at).toBe(neighbour.updated_at);
  });
});
