// Unique violations as expected outcomes: the helper on either dialect, and concurrent creations of one e-mail or slug answering 4xx, never 500.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type CallResponse, type Harness } from '../test/harness.js';
import { insertUnlessDuplicate, isUniqueViolation } from './unique.js';

const CALLS = 20;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** How many calls answered each status and error type, e.g. `{ '200': 1, '400 …': 19 }`. */
function tally(responses: CallResponse<unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const res of responses) {
    const key = res.status === 200 ? '200' : `${res.status} ${res.error?.error_type}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const race = <T>(call: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: CALLS }, (_, i) => call(i)));

async function membersWithEmail(email: string) {
  return h.db.selectFrom('members').select('id').where('email', '=', email).execute();
}

/** `count` unbound (discovery) ISTs, one per sign-in of the address. */
async function discoveryIsts(email: string, count: number): Promise<string[]> {
  const ists: string[] = [];
  for (let i = 0; i < count; i += 1) {
    await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: email } });
    const res = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
      body: { discovery_magic_links_token: await h.lastToken(email) },
    });
    ists.push(expectOk(res).intermediate_session_token);
  }
  return ists;
}

describe('insertUnlessDuplicate', () => {
  const role = (role_id: string, member_id = h.member.member_id) => ({
    member_id,
    role_id,
    source_type: 'direct_assignment',
  });

  it('answers false for a duplicate and leaves the transaction usable', async () => {
    const inserted = await h.db.transaction().execute(async (trx) => {
      const first = await insertUnlessDuplicate(trx, (db) =>
        db.insertInto('member_roles').values(role('auditor')).execute(),
      );
      const again = await insertUnlessDuplicate(trx, (db) =>
        db.insertInto('member_roles').values(role('auditor')).execute(),
      );
      // PostgreSQL would refuse this statement without the savepoint.
      await trx.insertInto('member_roles').values(role('reviewer')).execute();
      return [first, again];
    });
    expect(inserted).toEqual([true, false]);
    const roles = await h.db
      .selectFrom('member_roles')
      .select('role_id')
      .where('member_id', '=', h.member.member_id)
      .where('role_id', 'in', ['auditor', 'reviewer'])
      .orderBy('role_id')
      .execute();
    expect(roles.map((r) => r.role_id)).toEqual(['auditor', 'reviewer']);
    expect(
      await insertUnlessDuplicate(h.db, (db) =>
        db.insertInto('member_roles').values(role('auditor')).execute(),
      ),
    ).toBe(false);
  });

  it('rethrows every other error', async () => {
    const orphan = insertUnlessDuplicate(h.db, (db) =>
      db.insertInto('member_roles').values(role('auditor', 'member-test-nope')).execute(),
    );
    const error: unknown = await orphan.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(isUniqueViolation(error)).toBe(false);
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })).toBe(true);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed'))).toBe(false);
  });
});

describe('concurrent creations', () => {
  it('of one member by the management API: one 200, the rest 400 invalid_request', async () => {
    const responses = await race(() =>
      h.call(ENDPOINTS.createMember, {
        params: { organization_id: h.org.organization_id },
        body: { email_address: 'twin@acme.test' },
      }),
    );
    expect(tally(responses)).toEqual({ '200': 1, '400 invalid_request': CALLS - 1 });
    expect(await membersWithEmail('twin@acme.test')).toHaveLength(1);
  });

  it('of one slug by the management API: one 200, the rest 400 organization_slug_taken', async () => {
    const responses = await race(() =>
      h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Twin', organization_slug: 'twin' },
      }),
    );
    expect(tally(responses)).toEqual({ '200': 1, '400 organization_slug_taken': CALLS - 1 });
    const orgs = await h.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'twin')
      .execute();
    expect(orgs).toHaveLength(1);
  });

  it('of one explicit slug by discovery: one 200, the rest 400, no member left behind', async () => {
    const ists = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => discoveryIsts(`founder${i}@rival.test`, 1)),
    );
    const responses = await race((i) =>
      h.call(ENDPOINTS.discoveryOrganizationsCreate, {
        body: {
          intermediate_session_token: ists[i]?.[0],
          organization_slug: 'rival',
          session_duration_minutes: 60,
        },
      }),
    );
    expect(tally(responses)).toEqual({ '200': 1, '400 organization_slug_taken': CALLS - 1 });
    const members = await h.db
      .selectFrom('members')
      .select('id')
      .where('email', 'like', 'founder%@rival.test')
      .execute();
    expect(members).toHaveLength(1);
  });

  it('of default slugs by discovery: every caller gets an organization of its own', async () => {
    const ists = await Promise.all(
      Array.from({ length: 5 }, (_, i) => discoveryIsts(`founder${i}@garage.test`, 1)),
    );
    const responses = await Promise.all(
      ists.map(([ist]) =>
        h.call(ENDPOINTS.discoveryOrganizationsCreate, {
          body: { intermediate_session_token: ist, session_duration_minutes: 60 },
        }),
      ),
    );
    expect(tally(responses)).toEqual({ '200': 5 });
    const slugs = responses.map((r) => r.data?.organization.organization_slug).sort();
    expect(slugs).toEqual(['garage', 'garage-2', 'garage-3', 'garage-4', 'garage-5']);
  });

  it('of one member by discovery exchange (JIT): every caller enters as that member', async () => {
    const ists = await discoveryIsts('joiner@acme.test', CALLS);
    const responses = await race((i) =>
      h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: ists[i],
          organization_id: h.org.organization_id,
          session_duration_minutes: 60,
        },
      }),
    );
    expect(tally(responses)).toEqual({ '200': CALLS });
    const members = await membersWithEmail('joiner@acme.test');
    expect(members).toHaveLength(1);
    expect(new Set(responses.map((r) => r.data?.member_id))).toEqual(new Set([members[0]?.id]));
  });

  it('of one member by magic links (JIT): every caller signs in as that member', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < CALLS; i += 1) {
      await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: 'signup@acme.test', organization_id: h.org.organization_id },
      });
      tokens.push(await h.lastToken('signup@acme.test'));
    }
    const responses = await race((i) =>
      h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: { magic_links_token: tokens[i]!, session_duration_minutes: 60 },
      }),
    );
    expect(tally(responses)).toEqual({ '200': CALLS });
    const members = await membersWithEmail('signup@acme.test');
    expect(members).toHaveLength(1);
    expect(new Set(responses.map((r) => r.data?.member_id))).toEqual(new Set([members[0]?.id]));
  });
});
