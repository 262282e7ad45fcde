// organizations.members.search on the management API: organizations named and bounded, the
// provider's member filters, deleted members only on request, and pages across organizations.
import type { Member } from '@gatehouse/protocol';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let acme: string;
let umbrella: string;
const members: Record<string, Member> = {};
beforeAll(async () => {
  h = await startHarness();
  acme = h.org.organization_id;
  umbrella = (
    await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Umbrella',
      organization_slug: 'umbrella',
    })
  ).organization_id;
  const add = async (organizationId: string, email: string, roles: string[] = []) => {
    h.clock.advance(1000);
    members[email] = await h.admin.createMember(h.project.project_id, organizationId, {
      email_address: email,
      roles,
    });
  };
  await add(acme, 'grace@acme.test', ['admin']);
  await add(acme, 'linus@acme.test');
  await add(umbrella, 'alice@umbrella.test');
  await add(umbrella, 'gone@umbrella.test');
  await h.admin.updateMember(h.project.project_id, members['linus@acme.test']!.member_id, {
    mfa_phone_number: '+1 415 555 2671',
  });
  await h.admin.setMemberPassword(h.project.project_id, members['grace@acme.test']!.member_id, {
    password: 'correct horse battery staple 42',
  });
  await h.admin.deleteMember(
    h.project.project_id,
    umbrella,
    members['gone@umbrella.test']!.member_id,
  );
});
afterAll(async () => {
  await h.close();
});

type Body = RequestOf<typeof ENDPOINTS.searchMembers>;
type Operand = NonNullable<Body['query']>['operands'][number];
const search = (body: Body) => h.call(ENDPOINTS.searchMembers, { body });
/** The addresses of the members of both organizations matching the operands. */
async function emails(operands: Operand[], operator: 'AND' | 'OR' = 'AND') {
  const data = expectOk(
    await search({ organization_ids: [acme, umbrella], query: { operator, operands } }),
  );
  expect(data.results_metadata.total).toBe(data.members.length);
  return data.members.map((m) => m.email_address).sort();
}

describe('organizations.members.search', () => {
  it('answers the live members of the named organizations, with those organizations', async () => {
    const data = expectOk(await search({ organization_ids: [umbrella] }));
    expect(data.members.map((m) => m.email_address)).toEqual(['alice@umbrella.test']);
    expect(data.members[0]).toEqual(members['alice@umbrella.test']);
    expect(Object.keys(data.organizations)).toEqual([umbrella]);
    expect(data.organizations[umbrella]?.organization_slug).toBe('umbrella');
    expect(data.results_metadata).toEqual({ total: 1, next_cursor: null });
    const both = expectOk(await search({ organization_ids: [acme, umbrella, acme] }));
    expect(both.members.map((m) => m.email_address)).toEqual([
      'ada@acme.test',
      'grace@acme.test',
      'linus@acme.test',
      'alice@umbrella.test',
    ]);
    expect(Object.keys(both.organizations).sort()).toEqual([acme, umbrella].sort());
  });

  it('filters by the provider’s member filters, AND and OR', async () => {
    const grace = members['grace@acme.test']!;
    expect(await emails([{ filter_name: 'member_ids', filter_value: [grace.member_id] }])).toEqual([
      'grace@acme.test',
    ]);
    expect(
      await emails([{ filter_name: 'member_emails', filter_value: ['Alice@Umbrella.test'] }]),
    ).toEqual(['alice@umbrella.test']);
    expect(await emails([{ filter_name: 'member_email_fuzzy', filter_value: 'ACME.T' }])).toEqual([
      'ada@acme.test',
      'grace@acme.test',
      'linus@acme.test',
    ]);
    expect(await emails([{ filter_name: 'member_roles', filter_value: ['admin'] }])).toEqual([
      'grace@acme.test',
    ]);
    expect(await emails([{ filter_name: 'member_password_exists', filter_value: true }])).toEqual([
      'grace@acme.test',
    ]);
    for (const filter_name of ['member_phone_numbers', 'member_mfa_phone_numbers'] as const) {
      expect(await emails([{ filter_name, filter_value: ['(415) 555-2671'] }])).toEqual([
        'linus@acme.test',
      ]);
    }
    expect(
      await emails([{ filter_name: 'member_phone_number_fuzzy', filter_value: '5552' }]),
    ).toEqual(['linus@acme.test']);
    expect(await emails([{ filter_name: 'member_is_breakglass', filter_value: true }])).toEqual([]);
    const adminOrAlice: Operand[] = [
      { filter_name: 'member_roles', filter_value: ['admin'] },
      { filter_name: 'member_email_fuzzy', filter_value: 'alice' },
    ];
    expect(await emails(adminOrAlice, 'OR')).toEqual(['alice@umbrella.test', 'grace@acme.test']);
    expect(await emails(adminOrAlice, 'AND')).toEqual([]);
  });

  it('answers deleted members only when statuses names them', async () => {
    expect(await emails([{ filter_name: 'member_email_fuzzy', filter_value: 'gone' }])).toEqual([]);
    expect(await emails([{ filter_name: 'statuses', filter_value: ['deleted'] }])).toEqual([
      'gone@umbrella.test',
    ]);
    const data = expectOk(
      await search({
        organization_ids: [umbrella],
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'statuses', filter_value: ['deleted'] }],
        },
      }),
    );
    expect(data.members[0]?.status).toBe('deleted');
  });

  it('pages across organizations without repeats or gaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search({
        organization_ids: [acme, umbrella],
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      const data = expectOk(res);
      expect(data.results_metadata.total).toBe(4);
      seen.push(...data.members.map((m) => m.email_address));
      cursor = data.results_metadata.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 5);
    expect(pages).toBe(2);
    expect(seen).toEqual([
      'ada@acme.test',
      'grace@acme.test',
      'linus@acme.test',
      'alice@umbrella.test',
    ]);
    // A cursor of these organizations is no cursor of others.
    const first = expectOk(await search({ organization_ids: [acme, umbrella], limit: 1 }));
    const next = first.results_metadata.next_cursor ?? '';
    const res = await search({ organization_ids: [acme], limit: 1, cursor: next });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
  });

  it("refuses another project's organizations and unbounded or missing lists", async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    const theirs = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Globex',
      organization_slug: 'globex',
    });
    for (const organization_ids of [[theirs.organization_id], [acme, 'organization-test-nope']]) {
      const res = await search({ organization_ids });
      expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
    }
    // Their own key finds their organization: the refusal above was about the caller.
    const own = await h.call(ENDPOINTS.searchMembers, {
      body: { organization_ids: [theirs.organization_id] },
      authorization: basic(other.project_id, other.secret),
    });
    expect(own.status).toBe(200);
    const raw = (body: unknown) =>
      h.request('/v1/b2b/organizations/members/search', {
        method: 'POST',
        body,
        authorization: basic(h.project.project_id, h.project.secret),
        origin: null,
      });
    const refused = [
      {},
      { organization_ids: [] },
      { organization_ids: Array.from({ length: 101 }, (_, i) => `organization-test-${i}`) },
      {
        organization_ids: [acme],
        query: {
          operator: 'AND',
          operands: Array.from({ length: 3000 }, () => ({
            filter_name: 'member_emails',
            filter_value: ['a@acme.test'],
          })),
        },
      },
      {
        organization_ids: [acme],
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'member_email_fuzzy', filter_value: 'y'.repeat(50_000) }],
        },
      },
    ];
    for (const body of refused) {
      const res = await raw(body);
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
  });
});
