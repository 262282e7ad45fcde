/** What the parts of the account section share: the member, their organization, and its rules. */
import type { Member, MfaMethod, Organization } from '@gatehouse/protocol';
import type { NoticeState } from './notice.js';

/** What each part of the account section works on. */
export interface AccountPanelProps {
  member: Member;
  organization: Organization;
  /** The member as the server now stores them, after a change. */
  onMember: (member: Member) => void;
  notice: NoticeState;
}

/** Whether the organization lets its members use a second factor (docs/protocol.md §7.7). */
export function allowsMfa(organization: Organization, method: MfaMethod): boolean {
  return (
    organization.mfa_methods === 'ALL_ALLOWED' || organization.allowed_mfa_methods.includes(method)
  );
}
