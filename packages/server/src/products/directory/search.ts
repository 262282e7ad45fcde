/**
 * Searching the project's organizations and members for host backends, as the provider's
 * `organizations.search` and `organizations.members.search` do: conditions joined by AND or OR,
 * pages of at most 1000 oldest first, and a signed cursor to the next page.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import {
  SEARCH_LIMIT_DEFAULT,
  memberSearchFields,
  organizationSearchFields,
  type RequestOf,
  type ENDPOINTS,
} from '@gatehouse/protocol/endpoints';
import type { Context } from '../../context.js';
import { checkInput, isFailure, type Failure } from '../../result.js';
import { normalizeEmail, withRoles } from '../../tenancy/members/store.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { organizationsByIds, toOrganization } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { phoneNumberReader, type PhoneNumberReader } from '../otp-sms/phone.js';
import { decodeCursor, encodeCursor, type CursorScope } from './cursor.js';
import { invalidCursor } from './errors.js';
import {
  searchMemberRows,
  searchOrganizationRows,
  type Conditions,
  type MemberOperand,
  type OrganizationOperand,
  type Page,
  type PageKey,
} from './store-search.js';

/** What `organizations.search` takes. */
export type OrganizationSearchInput = RequestOf<typeof ENDPOINTS.searchOrganizations>;
/** What `organizations.members.search` takes. */
export type MemberSearchInput = RequestOf<typeof ENDPOINTS.searchMembers>;

/** `total` and the cursor of the next page. */
interface ResultsMetadata {
  total: number;
  next_cursor: string | null;
}

const lower = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];

/** Values in the form they are stored in: addresses, slugs and domains lowercased. */
function normalizeOrganizationOperand(o: OrganizationOperand): OrganizationOperand {
  switch (o.filter_name) {
    case 'organization_slugs':
    case 'allowed_domains':
    case 'claimed_email_domains':
      return { ...o, filter_value: lower(o.filter_value) };
    case 'member_emails':
      return { ...o, filter_value: [...new Set(o.filter_value.map(normalizeEmail))] };
    default:
      return o;
  }
}

/**
 * Values in the form they are stored in: addresses lowercased, phone numbers in E.164 when they
 * read as one (otherwise as given, matching nothing).
 */
function normalizeMemberOperand(o: MemberOperand, readPhone: PhoneNumberReader): MemberOperand {
  const storedPhone = (value: string) => readPhone(value)?.e164 ?? value.trim();
  switch (o.filter_name) {
    case 'member_emails':
      return { ...o, filter_value: [...new Set(o.filter_value.map(normalizeEmail))] };
    case 'member_phone_numbers':
    case 'member_mfa_phone_numbers':
      return { ...o, filter_value: [...new Set(o.filter_value.map(storedPhone))] };
    default:
      return o;
  }
}

/** The page size asked for; 0 or none is the default. */
const pageSize = (limit: number | undefined) => (limit ? limit : SEARCH_LIMIT_DEFAULT);

/**
 * Runs one page of a search: the cursor must be one this server issued for the same project and
 * conditions (else `invalid_request`), and the answer carries the cursor of the page after.
 */
async function onePage<Row>(
  ctx: Context,
  scope: CursorScope,
  cursor: string | null | undefined,
  run: (key: PageKey | null) => Promise<Page<Row>>,
): Promise<{ rows: Row[]; results_metadata: ResultsMetadata } | Failure> {
  let key: PageKey | null = null;
  if (cursor) {
    key = decodeCursor(ctx, scope, cursor);
    if (!key) return invalidCursor();
  }
  const page = await run(key);
  return {
    rows: page.rows,
    results_metadata: {
      total: page.total,
      next_cursor: page.next ? encodeCursor(ctx, scope, page.next) : null,
    },
  };
}

/**
 * One page of the project's organizations matching the query, oldest first.
 *
 * @example
 * const page = await searchOrganizations(ctx, project, {
 *   query: { operator: 'AND', operands: [{ filter_name: 'organization_name_fuzzy', filter_value: 'acm' }] },
 * });
 */
export async function searchOrganizations(
  ctx: Context,
  project: Project,
  input: OrganizationSearchInput,
): Promise<{ organizations: Organization[]; results_metadata: ResultsMetadata } | Failure> {
  const body = checkInput(organizationSearchFields, input);
  if (isFailure(body)) return body;
  const conditions: Conditions<OrganizationOperand> = {
    operator: body.query?.operator ?? 'AND',
    operands: (body.query?.operands ?? []).map(normalizeOrganizationOperand),
  };
  const limit = pageSize(body.limit);
  const scope: CursorScope = { projectId: project.id, search: 'organizations', conditions };
  const page = await onePage(ctx, scope, body.cursor, (key) =>
    searchOrganizationRows(ctx.db, project.id, conditions, key, limit),
  );
  if (isFailure(page)) return page;
  return {
    organizations: page.rows.map(toOrganization),
    results_metadata: page.results_metadata,
  };
}

/**
 * One page of the members of the named organizations matching the query, oldest first, with
 * those members' organizations. Every named organization must be one of the project's
 * (`organization_not_found` otherwise), so another project's ids reveal nothing.
 */
export async function searchMembers(
  ctx: Context,
  project: Project,
  input: MemberSearchInput,
): Promise<
  | {
      members: Member[];
      results_metadata: ResultsMetadata;
      organizations: Record<string, Organization>;
    }
  | Failure
> {
  const body = checkInput(memberSearchFields, input);
  if (isFailure(body)) return body;
  const organizationIds = [...new Set(body.organization_ids)].sort();
  const found = await organizationsByIds(ctx.db, project.id, organizationIds);
  if (found.length !== organizationIds.length) return organizationNotFound();
  const readPhone = await phoneNumberReader();
  const conditions: Conditions<MemberOperand> = {
    operator: body.query?.operator ?? 'AND',
    operands: (body.query?.operands ?? []).map((o) => normalizeMemberOperand(o, readPhone)),
  };
  const limit = pageSize(body.limit);
  const scope: CursorScope = {
    projectId: project.id,
    search: 'members',
    conditions: { organizationIds, conditions },
  };
  const page = await onePage(ctx, scope, body.cursor, (key) =>
    searchMemberRows(ctx.db, project.id, organizationIds, conditions, key, limit),
  );
  if (isFailure(page)) return page;
  const members = await withRoles(ctx.db, page.rows);
  const organizations: Record<string, Organization> = {};
  for (const org of found) {
    if (members.some((m) => m.organization_id === org.organization_id)) {
      organizations[org.organization_id] = org;
    }
  }
  return { members, results_metadata: page.results_metadata, organizations };
}
