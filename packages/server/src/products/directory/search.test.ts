// organizations.search and organizations.members.search on the management API: the provider's
// filters joined by AND or OR, pages through signed cursors, and hostile queries refused.
import type { Organization } from '@gatehouse/protocol';
import { ENDPOINTS, type RequestOf, type ResponseOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { addSamlConnection } from '../../test/sso.js';

let h: Harness;
const orgs: Record<string, Organization> = {};
beforeAll(async () => {
  h = await startHarness();
  const create = async (name: string, slug: string, domains: string[] = []) => {
    // Apart in time, so "oldest first" is the order of creation.
    h.clock.advance(1000);
    orgs[slug] = await h.admin.createOrganization(h.project.project_id, {
      organization_name: name,
      organization_slug: slug,
      email_allowed_domains: domains,
    });
  };
  await create('Umbrella Corp', 'umbrella', ['umbrella.test']);
  await create('Umbrella Labs', 'umbrella-labs');
  await create('Wayne Enterprises', 'wayne', ['wayne-ent.test']);
  await create('100% Pure', 'pure');
  await create('1000 Islands', 'islands');
  await h.admin.createMember(h.project.project_id, orgs.wayne!.organization_id, {
    email_address: 'bruce@wayne.test',
  });
  await addSamlConnection(h, {
    organizationId: orgs['umbrella-labs']!.organization_id,
    idpEntityId: 'https://idp.umbrella.test',
    idpSsoUrl: 'https://idp.umbrella.test/sso',
    certificates: [],
  });
});
afterAll(async () => {
  await h.close();
});

type OrgQuery = NonNullable<RequestOf<typeof ENDPOINTS.searchOrganizations>['query']>;
type OrgOperand = OrgQuery['operands'][number];

const searchOrgs = (body: RequestOf<typeof ENDPOINTS.searchOrganizations>) =>
  h.call(ENDPOINTS.searchOrganizations, { body });
/** The slugs of the organizations matching all (or any) of the operands. */
async function slugsMatching(operands: OrgOperand[], operator: 'AND' | 'OR' = 'AND') {
  const data = expectOk(await searchOrgs({ query: { operator, operands } }));
  expect(data.results_metadata.total).toBe(data.organizations.length);
  return data.organizations.map((o) => o.organization_slug).sort();
}
/** An untyped search, for bodies the table's types refuse on purpose. */
const rawSearch = (path: string, body: unknown) =>
  h.request(`/v1/b2b/organizations${path}`, {
    method: 'POST',
    body,
    authorization: basic(h.project.project_id, h.project.secret),
    origin: null,
  });

describe('organizations.search', () => {
  it('answers every organization without a query, oldest first', async () => {
    const data = expectOk(await searchOrgs({}));
    expect(data.organizations.map((o) => o.organization_slug)).toEqual([
      'acme',
      'umbrella',
      'umbrella-labs',
      'wayne',
      'pure',
      'islands',
    ]);
    expect(data.results_metadata).toEqual({ total: 6, next_cursor: null });
    expect(data.organizations[1]).toEqual(orgs.umbrella);
    expect(data).toMatchObject({ status_code: 200 });
  });

  it('filters by the provider’s filter names, AND and OR', async () => {
    const umbrellaName = { filter_name: 'organization_name_fuzzy', filter_value: 'UMBRELLA' };
    const umbrellaDomain = { filter_name: 'allowed_domains', filter_value: ['Umbrella.test'] };
    const wayneSlug = { filter_name: 'organization_slugs', filter_value: ['wayne'] };
    expect(await slugsMatching([umbrellaName] as OrgOperand[])).toEqual([
      'umbrella',
      'umbrella-labs',
    ]);
    expect(await slugsMatching([umbrellaName, umbrellaDomain] as OrgOperand[])).toEqual([
      'umbrella',
    ]);
    expect(await slugsMatching([umbrellaDomain, wayneSlug] as OrgOperand[], 'OR')).toEqual([
      'umbrella',
      'wayne',
    ]);
    expect(
      await slugsMatching([
        { filter_name: 'organization_ids', filter_value: [orgs.pure!.organization_id] },
      ]),
    ).toEqual(['pure']);
    expect(
      await slugsMatching([{ filter_name: 'organization_slug_fuzzy', filter_value: 'ella-l' }]),
    ).toEqual(['umbrella-labs']);
    expect(
      await slugsMatching([{ filter_name: 'member_emails', filter_value: ['Bruce@Wayne.test'] }]),
    ).toEqual(['wayne']);
    expect(
      await slugsMatching([{ filter_name: 'member_email_fuzzy', filter_value: 'uce@wa' }]),
    ).toEqual(['wayne']);
    expect(
      await slugsMatching([{ filter_name: 'allowed_domain_fuzzy', filter_value: 'ne-ent' }]),
    ).toEqual(['wayne']);
    expect(
      await slugsMatching([{ filter_name: 'claimed_email_domains', filter_value: ['acme.test'] }]),
    ).toEqual([]);
  });

  it('matches % and _ in a fuzzy value literally', async () => {
    expect(
      await slugsMatching([{ filter_name: 'organization_name_fuzzy', filter_value: '100%' }]),
    ).toEqual(['pure']);
    expect(
      await slugsMatching([{ filter_name: 'organization_name_fuzzy', filter_value: 'Um_rella' }]),
    ).toEqual([]);
  });

  it('filters by SSO connections', async () => {
    const connection = await h.db
      .selectFrom('sso_connections')
      .select('id')
      .where('organization_id', '=', orgs['umbrella-labs']!.organization_id)
      .executeTakeFirstOrThrow();
    expect(
      await slugsMatching([{ filter_name: 'sso_connection_id', filter_value: connection.id }]),
    ).toEqual(['umbrella-labs']);
    expect(
      await slugsMatching([{ filter_name: 'has_active_sso_connection', filter_value: true }]),
    ).toEqual(['umbrella-labs']);
    const without = await slugsMatching([
      { filter_name: 'has_active_sso_connection', filter_value: false },
    ]);
    expect(without).toHaveLength(5);
    expect(without).not.toContain('umbrella-labs');
  });

  it('pages through signed cursors with no repeat and no gap, new rows included', async () => {
    for (let i = 0; i < 23; i += 1) {
      await h.admin.createOrganization(h.project.project_id, {
        organization_name: `Paged ${i}`,
        organization_slug: `paged-${i}`,
      });
    }
    const query: OrgQuery = {
      operator: 'AND',
      operands: [{ filter_name: 'organization_slug_fuzzy', filter_value: 'paged-' }],
    };
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await searchOrgs({ query, limit: 10, ...(cursor ? { cursor } : {}) });
      const data: ResponseOf<typeof ENDPOINTS.searchOrganizations> = expectOk(res);
      seen.push(...data.organizations.map((o) => o.organization_slug));
      cursor = data.results_metadata.next_cursor;
      pages += 1;
      if (pages === 1) {
        expect(data.results_metadata.total).toBe(23);
        // A row added between pages, later than every row so far, shows up on a later page.
        h.clock.advance(1000);
        await h.admin.createOrganization(h.project.project_id, {
          organization_name: 'Paged late',
          organization_slug: 'paged-late',
        });
      }
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(
      [...Array.from({ length: 23 }, (_, i) => `paged-${i}`), 'paged-late'].sort(),
    );
  });

  it('refuses a cursor it did not issue for this search', async () => {
    const query: OrgQuery = {
      operator: 'AND',
      operands: [{ filter_name: 'organization_slug_fuzzy', filter_value: 'paged-' }],
    };
    const first = expectOk(await searchOrgs({ query, limit: 2 }));
    const cursor = first.results_metadata.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const [payload, signature] = (cursor ?? '').split('.');
    const forged = `${Buffer.from('["1970-01-01T00:00:00.000Z","a"]').toString('base64url')}.${signature}`;
    for (const bad of ['nope', `${payload}.`, `${payload}.${signature}x`, forged, 'a.b.c']) {
      const res = await searchOrgs({ query, limit: 2, cursor: bad });
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
    // The cursor of one search is no cursor of another.
    const otherQuery = await searchOrgs({ limit: 2, ...(cursor ? { cursor } : {}) });
    expect([otherQuery.status, otherQuery.error?.error_type]).toEqual([400, 'invalid_request']);
    const otherProject = await h.admin.createProject({ name: 'Other' });
    const foreign = await h.call(ENDPOINTS.searchOrganizations, {
      body: { query, limit: 2, ...(cursor ? { cursor } : {}) },
      authorization: basic(otherProject.project_id, otherProject.secret),
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([400, 'invalid_request']);
  });

  it('bounds the page size', async () => {
    expect((await searchOrgs({ limit: 1000 })).status).toBe(200);
    expect(expectOk(await searchOrgs({ limit: 1 })).organizations).toHaveLength(1);
    expect(expectOk(await searchOrgs({ limit: 0 })).organizations.length).toBeGreaterThan(1);
    for (const limit of [1001, -1, 2.5]) {
      const res = await searchOrgs({ limit });
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
  });

  it('refuses huge and malformed queries with 400', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      filter_name: 'organization_ids',
      filter_value: [`organization-test-${i}`],
    }));
    const huge = [
      { query: { operator: 'OR', operands: many } },
      {
        query: {
          operator: 'AND',
          operands: [
            {
              filter_name: 'organization_ids',
              filter_value: Array.from({ length: 5000 }, (_, i) => `id-${i}`),
            },
          ],
        },
      },
      {
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'organization_name_fuzzy', filter_value: 'x'.repeat(100_000) }],
        },
      },
      {
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'organization_name_fuzzy', filter_value: 'ab' }],
        },
      },
      {
        query: { operator: 'AND', operands: [{ filter_name: 'drop_table', filter_value: ['x'] }] },
      },
      { query: { operator: 'XOR', operands: [] } },
      { query: { operator: 'AND', operands: { filter_name: 'organization_ids' } } },
      { cursor: 'c'.repeat(100_000) },
    ];
    for (const body of huge) {
      const res = await rawSearch('/search', body);
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
  });
});
