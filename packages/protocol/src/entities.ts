/** Shared objects on the wire (docs/protocol.md §5). */

export type AuthMethod = 'sso' | 'magic_link' | 'password' | 'google_oauth' | 'microsoft_oauth';
export const AUTH_METHODS: readonly AuthMethod[] = [
  'sso',
  'magic_link',
  'password',
  'google_oauth',
  'microsoft_oauth',
];

export type MfaMethod = 'sms_otp' | 'totp';
export const MFA_METHODS: readonly MfaMethod[] = ['sms_otp', 'totp'];

export type EmailJitProvisioning = 'RESTRICTED' | 'NOT_ALLOWED';
export type AuthMethodsPolicy = 'ALL_ALLOWED' | 'RESTRICTED';
export type MfaPolicy = 'OPTIONAL' | 'REQUIRED_FOR_ALL';
export type MfaMethodsPolicy = 'ALL_ALLOWED' | 'RESTRICTED';
export type MemberStatus = 'active' | 'pending' | 'invited' | 'deleted';

/** Provider tenants by provider: Google Workspace domains (`hd`), Microsoft tenant ids (`tid`). */
export interface AllowedOAuthTenants {
  google?: string[];
  microsoft?: string[];
}

export interface SsoConnectionRef {
  connection_id: string;
  display_name: string;
  /** The connection's `identity_provider` label; `""` when it has none. */
  identity_provider: string;
}

export interface Organization {
  organization_id: string;
  organization_slug: string;
  organization_name: string;
  /** `""` means no logo; the first letter of the name is the fallback. */
  organization_logo_url: string;
  sso_active_connections: SsoConnectionRef[];
  sso_default_connection_id: string | null;
  email_jit_provisioning: EmailJitProvisioning;
  email_allowed_domains: string[];
  auth_methods: AuthMethodsPolicy;
  allowed_auth_methods: AuthMethod[];
  mfa_policy: MfaPolicy;
  mfa_methods: MfaMethodsPolicy;
  allowed_mfa_methods: MfaMethod[];
  trusted_metadata?: Record<string, unknown>;
  sso_jit_provisioning: string;
  email_invites: string;
  sso_jit_provisioning_allowed_connections: string[];
  /** Roles granted by e-mail domain (source `email_assignment`). */
  rbac_email_implicit_role_assignments: EmailRoleAssignment[];
  /** `RESTRICTED`: members of the tenants in `allowed_oauth_tenants` may join by OAuth. */
  oauth_tenant_jit_provisioning: EmailJitProvisioning;
  /** The provider tenants the organization trusts: Workspace domains and Entra tenant ids. */
  allowed_oauth_tenants?: AllowedOAuthTenants;
  /** Domains the organization has proven it owns; Gatehouse has no such proof yet: `[]`. */
  claimed_email_domains: string[];
  /** Connected apps are not offered: `""` and `[]`, the provider's values for none. */
  first_party_connected_apps_allowed_type: string;
  allowed_first_party_connected_apps: string[];
  third_party_connected_apps_allowed_type: string;
  allowed_third_party_connected_apps: string[];
  /** Roles of this organization alone; Gatehouse's custom roles are the project's: `[]`. */
  custom_roles: RbacRole[];
  /**
   * Gatehouse's own field (the provider's organization has none): the longest a session of a
   * member of this organization lives, in minutes from its start, whatever duration a sign-in
   * or refresh asks for; `null` for the project's absolute lifetime alone (§5, §14).
   */
  session_max_duration_minutes: number | null;
  created_at: string;
  /**
   * When the organization last changed (RFC 3339); a later change always has a later value.
   * Sent back as the precondition of an update (`updated_at`, 409 `stale_update` when it moved).
   */
  updated_at: string;
}

/** The organization fields returned by the anonymous slug search. */
export type OrganizationSlugSubset = Pick<
  Organization,
  | 'organization_id'
  | 'organization_name'
  | 'organization_logo_url'
  | 'sso_active_connections'
  | 'sso_default_connection_id'
  | 'email_jit_provisioning'
  | 'email_allowed_domains'
  | 'auth_methods'
  | 'allowed_auth_methods'
  | 'mfa_policy'
>;

export type RoleSourceType =
  'direct_assignment' | 'email_assignment' | 'sso_connection' | 'sso_connection_group';

export interface MemberRole {
  role_id: string;
  sources: { type: RoleSourceType; details: Record<string, unknown> }[];
}

/** An identity of Google or Microsoft linked to a member. */
export interface OAuthRegistration {
  provider_type: string;
  provider_subject: string;
  member_oauth_registration_id: string;
  profile_picture_url?: string;
  locale?: string;
}

/** An SSO connection's identity linked to a member. */
export interface SsoRegistration {
  connection_id: string;
  external_id: string;
  registration_id: string;
  sso_attributes?: Record<string, unknown>;
}

/** An address a member had before it changed. */
export interface RetiredEmail {
  email_id: string;
  email_address: string;
}

export interface Member {
  organization_id: string;
  member_id: string;
  email_address: string;
  email_address_verified: boolean;
  name: string;
  status: MemberStatus;
  /** `""` means no password. */
  member_password_id: string;
  mfa_enrolled: boolean;
  /** E.164 or `""`. */
  mfa_phone_number: string;
  mfa_phone_number_verified: boolean;
  /** `""` means none; truthy means enrolled. */
  totp_registration_id: string;
  default_mfa_method: '' | MfaMethod;
  roles: MemberRole[];
  trusted_metadata?: Record<string, unknown>;
  untrusted_metadata?: Record<string, unknown>;
  sso_registrations: SsoRegistration[];
  oauth_registrations: OAuthRegistration[];
  is_breakglass: boolean;
  /** Whether the member holds the `admin` role. */
  is_admin: boolean;
  /** Whether sign-in is locked for the member; Gatehouse locks second factors only: false. */
  is_locked: boolean;
  retired_email_addresses: RetiredEmail[];
  created_at: string;
  /**
   * When the member last changed (RFC 3339); a later change always has a later value. Sent back
   * as the precondition of an update (`updated_at`, 409 `stale_update` when it moved).
   */
  updated_at: string;
  /**
   * Gatehouse's own field (the provider's member has none): when the member last completed a
   * sign-in into the organization, by any method (RFC 3339); `null` before the first (§5).
   */
  last_sign_in_at: string | null;
}

/**
 * What an anonymous caller may see of a member (§5): never the phone, factors, roles or metadata.
 *
 * @example
 * const seen: AnonymousMember = { organization_id, member_id, email_address, status: 'active', member_password_id: '' };
 */
export type AnonymousMember = Pick<
  Member,
  'organization_id' | 'member_id' | 'email_address' | 'status' | 'member_password_id'
>;

export interface AuthenticationFactor {
  type: string;
  delivery_method: string;
  last_authenticated_at: string;
  sequence_order: 'PRIMARY' | 'SECONDARY';
  [kindFactor: string]: unknown;
}

export interface MemberSession {
  member_session_id: string;
  member_id: string;
  organization_id: string;
  organization_slug: string;
  started_at: string;
  last_accessed_at: string;
  expires_at: string;
  custom_claims: Record<string, unknown>;
  /** Role ids, for the client-side RBAC check. */
  roles: string[];
  authentication_factors: AuthenticationFactor[];
}

export type MembershipType =
  'active_member' | 'pending_member' | 'invited_member' | 'eligible_to_join_by_email_domain';

export type Membership =
  | {
      type: 'active_member' | 'pending_member' | 'invited_member';
      details: null;
      member: Member;
    }
  | {
      type: 'eligible_to_join_by_email_domain';
      details: { domain: string };
      member: null;
    };

export interface MfaRequired {
  member_options: { mfa_phone_number: string } | null;
  secondary_auth_initiated: 'sms_otp' | null;
}

export interface DiscoveredOrganization {
  organization: Organization;
  membership: Membership;
  member_authenticated: boolean;
  mfa_required: MfaRequired | null;
  primary_required: { allowed_auth_methods: AuthMethod[] } | null;
}

export interface RbacPermission {
  resource_id: string;
  actions: string[];
}

export interface RbacRole {
  role_id: string;
  description: string;
  permissions: RbacPermission[];
}

export interface RbacResource {
  resource_id: string;
  description: string;
  actions: string[];
}

export interface RbacPolicy {
  roles: RbacRole[];
  resources: RbacResource[];
}

/** An organization's rule granting a role to every member whose address is at a domain. */
export interface EmailRoleAssignment {
  domain: string;
  role_id: string;
}
