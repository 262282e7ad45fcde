/** The member search a portal's filters make (docs/protocol.md §7.10, `me/members/search`). */
import type { Member, MemberStatus } from '@gatehouse/protocol';
import type { ArgsOf } from '@gatehouse/client';

export type SearchQuery = NonNullable<ArgsOf<'organizationMembersSearch'>['query']>;
type Operand = SearchQuery['operands'][number];

/** What the member filled in: free text, a status and a role, each possibly empty. */
export interface MemberFilters {
  text: string;
  status: MemberStatus | '';
  role: string;
}

/** The statuses a filter offers, in this order. */
export const STATUSES: readonly MemberStatus[] = ['active', 'invited', 'pending', 'deleted'];

/** One page of members, twenty at a time. */
export const PAGE_SIZE = 20;

/**
 * The search query for the filters, or undefined for every member. The text matches part of the
 * address or the name; the query has one operator, so beside a status or role filter (all of
 * which must hold) the text matches the address alone.
 *
 * @example
 * searchQuery({ text: 'ada', status: '', role: '' });
 * // { operator: 'OR', operands: [email fuzzy 'ada', name fuzzy 'ada'] }
 */
export function searchQuery(filters: MemberFilters): SearchQuery | undefined {
  const text = filters.text.trim();
  const narrowing: Operand[] = [];
  if (filters.status) narrowing.push({ filter_name: 'statuses', filter_value: [filters.status] });
  if (filters.role) narrowing.push({ filter_name: 'member_roles', filter_value: [filters.role] });
  if (narrowing.length === 0) {
    if (!text) return undefined;
    return {
      operator: 'OR',
      operands: [
        { filter_name: 'member_email_fuzzy', filter_value: text },
        { filter_name: 'member_name_fuzzy', filter_value: text },
      ],
    };
  }
  if (text) narrowing.push({ filter_name: 'member_email_fuzzy', filter_value: text });
  return { operator: 'AND', operands: narrowing };
}

/** The roles given to the member directly (not by e-mail domain or SSO group), `member` aside. */
export function directRoles(member: Member): string[] {
  return member.roles
    .filter((r) => r.role_id !== 'member')
    .filter((r) => r.sources.some((s) => s.type === 'direct_assignment'))
    .map((r) => r.role_id);
}
