/**
 * The directory's search queries: the project's organizations and the members of some of its
 * organizations, filtered by the provider's operands and paged by key — `(created_at, id)`, oldest
 * first — so a page never repeats or skips a row when rows are added between calls.
 */
import type { BodyOf, ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../context.js';
import type { Database, MembersTable, OrganizationsTable } from '../../store/schema.js';

type OrganizationQuery = NonNullable<BodyOf<typeof ENDPOINTS.searchOrganizations>['query']>;
type MemberQuery = NonNullable<BodyOf<typeof ENDPOINTS.searchMembers>['query']>;
/** One condition of an organization search, its values already normalized by the service. */
export type OrganizationOperand = OrganizationQuery['operands'][number];
/** One condition of a member search, its values already normalized by the service. */
export type MemberOperand = MemberQuery['operands'][number];

/** A query as the store runs it: all or any of its conditions; none means every row. */
export interface Conditions<O> {
  operator: 'AND' | 'OR';
  operands: readonly O[];
}

/** Where the previous page ended: its last row's creation time and id. */
export interface PageKey {
  created_at: string;
  id: string;
}

/** A page of rows, the key of its last row when more follow, and how many rows match in all. */
export interface Page<Row> {
  rows: Row[];
  next: PageKey | null;
  total: number;
}

const NEVER = sql<SqlBool>`1 = 0`;
const ALWAYS = sql<SqlBool>`1 = 1`;

/**
 * A case-insensitive "contains" test. `%`, `_` and the escape character in the text match only
 * themselves, so a search for `100%` cannot become a wildcard.
 */
function contains(column: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<SqlBool>`lower(${column}) like ${pattern} escape '!'`;
}

function combine<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  operator: 'AND' | 'OR',
  conditions: Expression<SqlBool>[],
): Expression<SqlBool> {
  if (conditions.length === 0) return ALWAYS;
  return operator === 'AND' ? eb.and(conditions) : eb.or(conditions);
}

/** Rows after `key` in `(created_at, id)` order. */
function after<TB extends 'organizations' | 'members'>(
  eb: ExpressionBuilder<Database, TB>,
  key: PageKey,
): Expression<SqlBool> {
  const created = eb.ref('created_at') as unknown as Expression<string>;
  const id = eb.ref('id') as unknown as Expression<string>;
  return eb.or([
    eb(created, '>', key.created_at),
    eb.and([eb(created, '=', key.created_at), eb(id, '>', key.id)]),
  ]);
}

function organizationCondition(
  eb: ExpressionBuilder<Database, 'organizations'>,
  o: OrganizationOperand,
): Expression<SqlBool> {
  const liveMembers = () =>
    eb
      .selectFrom('members')
      .select('members.id')
      .whereRef('members.organization_id', '=', 'organizations.id')
      .where('members.status', '!=', 'deleted');
  const domains = () =>
    eb
      .selectFrom('organization_domains')
      .select('organization_domains.domain')
      .whereRef('organization_domains.organization_id', '=', 'organizations.id');
  const connections = () =>
    eb
      .selectFrom('sso_connections')
      .select('sso_connections.id')
      .whereRef('sso_connections.organization_id', '=', 'organizations.id');
  switch (o.filter_name) {
    case 'organization_ids':
      return eb('organizations.id', 'in', o.filter_value);
    case 'organization_slugs':
      return eb('organizations.slug', 'in', o.filter_value);
    case 'organization_name_fuzzy':
      return contains(eb.ref('organizations.name'), o.filter_value);
    case 'organization_slug_fuzzy':
      return contains(eb.ref('organizations.slug'), o.filter_value);
    case 'member_emails':
      return eb.exists(liveMembers().where('members.email', 'in', o.filter_value));
    case 'member_email_fuzzy':
      return eb.exists(
        liveMembers().where((sub) => contains(sub.ref('members.email'), o.filter_value)),
      );
    case 'allowed_domains':
      return eb.exists(domains().where('organization_domains.domain', 'in', o.filter_value));
    case 'allowed_domain_fuzzy':
      return eb.exists(
        domains().where((sub) => contains(sub.ref('organization_domains.domain'), o.filter_value)),
      );
    case 'claimed_email_domains':
      // The domains its admins verified by DNS (docs/protocol.md §7.12).
      return eb.exists(
        eb
          .selectFrom('domain_verifications')
          .select('domain_verifications.id')
          .whereRef('domain_verifications.organization_id', '=', 'organizations.id')
          .where('domain_verifications.verified_domain', 'in', o.filter_value),
      );
    case 'has_active_sso_connection': {
      const active = eb.exists(connections().where('sso_connections.status', '=', 'active'));
      return o.filter_value ? active : eb.not(active);
    }
    case 'sso_connection_id':
      return eb.exists(connections().where('sso_connections.id', '=', o.filter_value));
  }
}

function memberCondition(
  eb: ExpressionBuilder<Database, 'members'>,
  o: MemberOperand,
): Expression<SqlBool> {
  switch (o.filter_name) {
    case 'member_ids':
      return eb('members.id', 'in', o.filter_value);
    case 'member_emails':
      return eb('members.email', 'in', o.filter_value);
    case 'member_email_fuzzy':
      return contains(eb.ref('members.email'), o.filter_value);
    case 'member_is_breakglass':
      // No Gatehouse member is a break-glass account.
      return o.filter_value ? NEVER : ALWAYS;
    case 'statuses':
      return eb('members.status', 'in', o.filter_value);
    case 'member_phone_numbers':
    case 'member_mfa_phone_numbers':
      return eb('members.mfa_phone_number', 'in', o.filter_value);
    case 'member_phone_number_fuzzy':
    case 'member_mfa_phone_number_fuzzy':
      return contains(eb.ref('members.mfa_phone_number'), o.filter_value);
    case 'member_roles':
      return eb(
        'members.id',
        'in',
        eb
          .selectFrom('member_roles')
          .select('member_roles.member_id')
          .where('member_roles.role_id', 'in', o.filter_value),
      );
    case 'member_password_exists':
      return eb('members.password_id', o.filter_value ? '!=' : '=', '');
  }
}

/**
 * A page of the project's organizations matching the conditions, oldest first, from after `key`.
 *
 * @example
 * const page = await searchOrganizationRows(db, project.id, { operator: 'AND', operands: [] }, null, 100);
 */
export async function searchOrganizationRows(
  db: Db,
  projectId: string,
  query: Conditions<OrganizationOperand>,
  key: PageKey | null,
  limit: number,
): Promise<Page<OrganizationsTable>> {
  const matching = db
    .selectFrom('organizations')
    .where('organizations.project_id', '=', projectId)
    .where((eb) =>
      combine(
        eb,
        query.operator,
        query.operands.map((o) => organizationCondition(eb, o)),
      ),
    );
  const count = await matching
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  const rows = await (key ? matching.where((eb) => after(eb, key)) : matching)
    .selectAll('organizations')
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .limit(limit + 1)
    .execute();
  return paged(rows, limit, Number(count?.n ?? 0));
}

/**
 * A page of the members of the given organizations of the project matching the conditions,
 * oldest first, from after `key`. Deleted members are left out unless a `statuses` condition
 * names `deleted`.
 */
export async function searchMemberRows(
  db: Db,
  projectId: string,
  organizationIds: readonly string[],
  query: Conditions<MemberOperand>,
  key: PageKey | null,
  limit: number,
): Promise<Page<MembersTable>> {
  const askedForDeleted = query.operands.some(
    (o) => o.filter_name === 'statuses' && o.filter_value.includes('deleted'),
  );
  let matching = db
    .selectFrom('members')
    .where('members.project_id', '=', projectId)
    .where('members.organization_id', 'in', organizationIds)
    .where((eb) =>
      combine(
        eb,
        query.operator,
        query.operands.map((o) => memberCondition(eb, o)),
      ),
    );
  if (!askedForDeleted) matching = matching.where('members.status', '!=', 'deleted');
  const count = await matching
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  const rows = await (key ? matching.where((eb) => after(eb, key)) : matching)
    .selectAll('members')
    .orderBy('members.created_at')
    .orderBy('members.id')
    .limit(limit + 1)
    .execute();
  return paged(rows, limit, Number(count?.n ?? 0));
}

/** The first `limit` rows, and the key of the last of them when another row follows. */
function paged<Row extends PageKey>(rows: Row[], limit: number, total: number): Page<Row> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    next: rows.length > limit && last ? { created_at: last.created_at, id: last.id } : null,
    total,
  };
}
