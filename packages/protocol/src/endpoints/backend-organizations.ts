/**
 * The organization and member calls of the management API that the hosted provider's backend SDK
 * makes (`organizations.search`, `organizations.delete`, `organizations.metrics`,
 * `organizations.members.get`, `search`,
 * `delete`, `reactivate` and the removal of a member's password, phone number or authenticator
 * app), with its paths, filter names and answers.
 */
import { z } from 'zod';
import type { Ack } from '../api.js';
import type { Member, Organization } from '../entities.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** The most results one search page holds, and the page size when the caller names none. */
export const SEARCH_LIMIT_MAX = 1000;
export const SEARCH_LIMIT_DEFAULT = 100;
/** The most conditions one query holds, and the most values all its lists hold together. */
export const SEARCH_OPERANDS_MAX = 20;
export const SEARCH_VALUES_MAX = 1000;
/** The most organizations one member search spans. */
export const MEMBER_SEARCH_ORGANIZATIONS_MAX = 100;

/** `total` and the cursor of the next page (null on the last). */
export interface SearchResultsMetadata {
  total: number;
  next_cursor: string | null;
}

/** `organizations.search`: one page of the project's organizations. */
export interface OrganizationSearchResult extends Ack {
  organizations: Organization[];
  results_metadata: SearchResultsMetadata;
}

/** `organizations.delete`: the organization that no longer exists. */
export interface OrganizationDeleteResult extends Ack {
  organization_id: string;
}

/** `organizations.metrics`: how many members the organization has (active, invited, pending). */
export interface OrganizationMetricsResult extends Ack {
  member_count: number;
}

/** A call about one member: the member with its organization. */
export interface BackendMemberResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** `organizations.members.search`: one page of members, with the organizations they belong to. */
export interface MemberSearchResult extends Ack {
  members: Member[];
  results_metadata: SearchResultsMetadata;
  /** The organizations of the members on this page, by id. */
  organizations: Record<string, Organization>;
}

/** `organizations.members.delete`: the member that was deleted. */
export interface BackendMemberDeleteResult extends Ack {
  member_id: string;
}

const list = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1, 'must not be empty').max(SEARCH_VALUES_MAX);
/** Fuzzy filters match a part of the value, case-insensitively; like the provider, 3 characters or more. */
const fuzzy = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(256, 'must be at most 256 characters');
const domain = z.string().min(1).max(253);
const phone = z.string().min(1).max(64);
const operand = <N extends string, V extends z.ZodType>(name: N, value: V) =>
  z.object({ filter_name: z.literal(name), filter_value: value });

/** One condition of `organizations.search`, with the provider's filter names. */
export const organizationSearchOperand = z.discriminatedUnion('filter_name', [
  operand('organization_ids', list(f.id)),
  operand('organization_slugs', list(f.slug)),
  operand('organization_name_fuzzy', fuzzy),
  operand('organization_slug_fuzzy', fuzzy),
  operand('member_emails', list(f.email)),
  operand('member_email_fuzzy', fuzzy),
  operand('allowed_domains', list(domain)),
  operand('allowed_domain_fuzzy', fuzzy),
  operand('claimed_email_domains', list(domain)),
  operand('has_active_sso_connection', z.boolean()),
  operand('sso_connection_id', f.id),
]);

/**
 * One condition of `organizations.members.search`. The phone filters answer to both spellings the
 * provider uses (`member_phone_numbers` in its SDK's types, `member_mfa_phone_numbers` in its
 * reference).
 */
export const memberSearchOperand = z.discriminatedUnion('filter_name', [
  operand('member_ids', list(f.id)),
  operand('member_emails', list(f.email)),
  operand('member_email_fuzzy', fuzzy),
  operand('member_is_breakglass', z.boolean()),
  operand('statuses', list(z.enum(['active', 'invited', 'pending', 'deleted']))),
  operand('member_phone_numbers', list(phone)),
  operand('member_mfa_phone_numbers', list(phone)),
  operand('member_phone_number_fuzzy', fuzzy),
  operand('member_mfa_phone_number_fuzzy', fuzzy),
  operand('member_roles', list(f.id)),
  operand('member_password_exists', z.boolean()),
]);

/** How many values a query's lists hold together. */
function valueCount(operands: readonly { filter_value: unknown }[]): number {
  return operands.reduce(
    (n, o) => n + (Array.isArray(o.filter_value) ? o.filter_value.length : 1),
    0,
  );
}

const query = <O extends z.ZodType<{ filter_value: unknown }>>(item: O) =>
  z
    .object({
      operator: z.enum(['AND', 'OR']),
      operands: z.array(item).max(SEARCH_OPERANDS_MAX, `must hold at most ${SEARCH_OPERANDS_MAX}`),
    })
    .refine((q) => valueCount(q.operands) <= SEARCH_VALUES_MAX, {
      message: `the operands may name at most ${SEARCH_VALUES_MAX} values in all`,
      path: ['operands'],
    });

/** The page of a search: the cursor of an earlier answer (none, null or '' for the first page). */
const page = {
  cursor: z.string().max(1024, 'must be a next_cursor from an earlier page').nullable().optional(),
  limit: z
    .number()
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(SEARCH_LIMIT_MAX, `must be at most ${SEARCH_LIMIT_MAX}`)
    .optional(),
};

/** The body of `organizations.search`. */
export const organizationSearchFields = z.object({
  ...page,
  query: query(organizationSearchOperand).optional(),
});

/** The body of `organizations.members.search`. */
export const memberSearchFields = z.object({
  organization_ids: z
    .array(f.id)
    .min(1, 'must name at least one organization')
    .max(
      MEMBER_SEARCH_ORGANIZATIONS_MAX,
      `must name at most ${MEMBER_SEARCH_ORGANIZATIONS_MAX} organizations`,
    ),
  ...page,
  query: query(memberSearchOperand).optional(),
});

/** The query of `GET …/member`: the member by id or by e-mail address, exactly one of them. */
export const memberLookupFields = z
  .object({ member_id: f.id.optional(), email_address: f.email.optional() })
  .refine((q) => (q.member_id === undefined) !== (q.email_address === undefined), {
    message: 'exactly one of member_id and email_address is required',
    path: ['member_id'],
  });

const ORGANIZATION = '/v1/b2b/organizations/:organization_id';

export const BACKEND_ORGANIZATION_ENDPOINTS = {
  searchOrganizations: endpoint<OrganizationSearchResult>()({
    method: 'POST',
    path: '/v1/b2b/organizations/search',
    credential: 'secret',
    summary:
      "Searches the project's organizations by ids, slugs, names, members' addresses, domains and SSO connections (AND/OR); oldest first, a page at a time.",
    body: organizationSearchFields,
  }),
  deleteOrganization: endpoint<OrganizationDeleteResult>()({
    method: 'DELETE',
    path: ORGANIZATION,
    credential: 'secret',
    summary:
      'Deletes an organization with its members, their factors and sessions (which stop working at once) and its SSO connections.',
    body: null,
  }),
  organizationMetrics: endpoint<OrganizationMetricsResult>()({
    method: 'GET',
    path: `${ORGANIZATION}/metrics`,
    credential: 'secret',
    summary: 'How many members an organization has, deleted members not counted.',
    body: null,
  }),
  lookupMember: endpoint<BackendMemberResult>()({
    method: 'GET',
    path: `${ORGANIZATION}/member`,
    credential: 'secret',
    summary:
      'Reads a member of the organization by the query parameter member_id or email_address (deleted members are not found).',
    body: null,
  }),
  searchMembers: endpoint<MemberSearchResult>()({
    method: 'POST',
    path: '/v1/b2b/organizations/members/search',
    credential: 'secret',
    summary:
      'Searches the members of the named organizations (AND/OR); deleted members only when statuses names them. Oldest first, a page at a time.',
    body: memberSearchFields,
  }),
  deleteMember: endpoint<BackendMemberDeleteResult>()({
    method: 'DELETE',
    path: `${ORGANIZATION}/members/:member_id`,
    credential: 'secret',
    summary: 'Deletes a member (status deleted) and ends their sessions at once.',
    body: null,
  }),
  reactivateMember: endpoint<BackendMemberResult>()({
    method: 'PUT',
    path: `${ORGANIZATION}/members/:member_id/reactivate`,
    credential: 'secret',
    summary: 'Makes a deleted member active again; any other member is answered unchanged.',
    body: null,
  }),
  deleteMemberPassword: endpoint<BackendMemberResult>()({
    method: 'DELETE',
    path: `${ORGANIZATION}/members/passwords/:member_password_id`,
    credential: 'secret',
    summary: "Removes a member's password, by its member_password_id.",
    body: null,
  }),
  deleteMemberMfaPhoneNumber: endpoint<BackendMemberResult>()({
    method: 'DELETE',
    path: `${ORGANIZATION}/members/mfa_phone_numbers/:member_id`,
    credential: 'secret',
    summary: "Removes a member's MFA phone number.",
    body: null,
  }),
  deleteMemberTotp: endpoint<BackendMemberResult>()({
    method: 'DELETE',
    path: `${ORGANIZATION}/members/:member_id/totp`,
    credential: 'secret',
    summary: "Removes a member's authenticator app and its recovery codes.",
    body: null,
  }),
} as const;
