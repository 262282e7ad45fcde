/** What anonymous callers may see of members and organizations (docs/protocol.md §5), built field by field. */
import type { AnonymousMember, Member, Organization, OrganizationSlugSubset } from './entities.js';

/**
 * The anonymous member subset: what a caller holding only the public token may see. Built field
 * by field, so a field added to members later never leaks by default.
 *
 * @example
 * return { member_id: member.member_id, member: toAnonymousMember(member) };
 */
export function toAnonymousMember(member: Member): AnonymousMember {
  return {
    organization_id: member.organization_id,
    member_id: member.member_id,
    email_address: member.email_address,
    status: member.status,
    member_password_id: member.member_password_id,
  };
}

/**
 * The slug subset of an organization, as anonymous lookups return it.
 *
 * @example
 * return { organization: org ? toSlugSubset(org) : null };
 */
export function toSlugSubset(org: Organization): OrganizationSlugSubset {
  return {
    organization_id: org.organization_id,
    organization_name: org.organization_name,
    organization_logo_url: org.organization_logo_url,
    sso_active_connections: org.sso_active_connections,
    sso_default_connection_id: org.sso_default_connection_id,
    email_jit_provisioning: org.email_jit_provisioning,
    email_allowed_domains: org.email_allowed_domains,
    auth_methods: org.auth_methods,
    allowed_auth_methods: org.allowed_auth_methods,
    mfa_policy: org.mfa_policy,
  };
}
