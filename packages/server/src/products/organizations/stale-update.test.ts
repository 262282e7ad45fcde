// Concurrent edits of an organization from the member-session API (docs/protocol.md §7.10): a
// change based on an updated_at that has moved since is refused with 409 stale_update and changes
// nothing. Runs on SQLite and PostgreSQL (concurrent updates included).
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let boss: string;
let plain: string;

beforeAll(async () => {
  h = await startHarness();
  expectOk(
    await h.call(ENDPOINTS.createMember, {
      params: { organization_id: h.org.organization_id },
      body: { email_address: 'boss@acme.test', roles: ['admin'] },
    }),
  );
  boss = (await h.login('boss@acme.test')).session_token;
  plain = (await h.login('ada@acme.test')).session_token;
});

afterAll(async () => {
  await h?.close();
});

async function loaded() {
  return expectOk(await h.call(ENDPOINTS.organizationMe, { token: boss })).organization;
}

describe('organization update with an updated_at precondition', () => {
  it('applies a change based on the stored updated_at and answers the new one', async () => {
    const before = await loaded();
    expect(before.updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const after = expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: boss,
        body: { organization_name: 'Acme One', updated_at: before.updated_at },
      }),
    ).organization;
    expect(after.organization_name).toBe('Acme One');
    // The test clock stands still: the value still moves forward, so a later check can tell.
    expect(after.updated_at > before.updated_at).toBe(true);
    expect((await loaded()).updated_at).toBe(after.updated_at);
  });

  it('refuses a change based on an older updated_at with 409 and changes nothing', async () => {
    const old = await loaded();
    expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: boss,
        body: { organization_name: 'Acme Two' },
      }),
    );
    const current = await loaded();
    const stale = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: boss,
      body: {
        organization_name: 'Overwritten',
        mfa_policy: 'REQUIRED_FOR_ALL',
        updated_at: old.updated_at,
      },
    });
    expect(stale.status).toBe(409);
    const error = expectError(stale);
    expect(error.error_type).toBe('stale_update');
    expect(error.error_message).toMatch(/changed by someone else/);
    expect(await loaded()).toEqual(current);
  });

  it('lets exactly one of two concurrent updates from the same loaded screen through', async () => {
    const old = await loaded();
    const answers = await Promise.all(
      ['First', 'Second', 'Third', 'Fourth'].map((name) =>
        h.call(ENDPOINTS.organizationUpdateMe, {
          token: boss,
          body: { organization_name: name, updated_at: old.updated_at },
        }),
      ),
    );
    const passed = answers.filter((a) => a.status === 200);
    expect(passed).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(expectError(a).error_type).toBe('stale_update');
    }
    const now = await loaded();
    expect(now.organization_name).toBe(expectOk(passed[0]!).organization.organization_name);
    // Changes without a precondition at the same moment are all applied, none lost to a race.
    const free = await Promise.all(
      ['A', 'B', 'C'].map((name) =>
        h.call(ENDPOINTS.organizationUpdateMe, { token: boss, body: { organization_name: name } }),
      ),
    );
    expect(free.map((a) => a.status)).toEqual([200, 200, 200]);
    const stamps = new Set(free.map((a) => expectOk(a).organization.updated_at));
    expect(stamps.size).toBe(3);
  });

  it('checks the permission and the credential before the precondition', async () => {
    const current = await loaded();
    const denied = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: plain,
      body: { organization_name: 'Nope', updated_at: current.updated_at },
    });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const secret = await h.call(ENDPOINTS.organizationUpdateMe, {
      authorization: basic(h.project.project_id, h.project.secret),
      body: { organization_name: 'Nope', updated_at: current.updated_at },
    });
    expect(secret.status).toBe(401);
    const badShape = await h.sdk('/b2b/organizations/me', {
      method: 'PUT',
      token: boss,
      body: { organization_name: 'Nope', updated_at: 12 },
    });
    expect(badShape.status).toBe(400);
    expect(await loaded()).toEqual(current);
  });

  it('refuses a precondition taken from another organization', async () => {
    const theirs = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Neighbours', organization_slug: 'neighbours-stale' },
      }),
    ).organization;
    const current = await loaded();
    const res = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: boss,
      body: { organization_name: 'Nope', updated_at: theirs.updated_at },
    });
    // Their value is only a value: it names no organization, and it is not this one's.
    expect(res.status).toBe(409);
    expect(await loaded()).toEqual(current);
  });
});
