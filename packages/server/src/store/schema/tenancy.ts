// The tenancy tables: projects and their secrets, organizations and their domains, members,
// their roles, and each project's own RBAC policy.
import type { Columns, Flag, Json, TableColumns, Timestamp } from './columns.js';

export interface ProjectsTable {
  id: string;
  name: string;
  environment: 'test' | 'live';
  public_token: string;
  create_organization_enabled: Flag;
  authorized_origins: Json;
  redirect_urls: Json;
  slug_pattern: string | null;
  pkce_required: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** `none`, `zxcvbn` or `luds`. */
  password_policy: 'none' | 'zxcvbn' | 'luds';
  luds_complexity: number;
  luds_minimum_count: number;
  /** The absolute lifetime of this project's sessions in minutes; null for the server's. */
  session_max_lifetime_minutes: number | null;
  /**
   * Whether the widget shows its 'Powered by Gatehouse' line (bootstrap's watermark flag). The
   * column defaults to 0 and is never null; optional here so inserts may leave it out.
   */
  display_watermark: Flag | null;
}

const projectsColumns = {
  id: 'text not null',
  name: 'text not null',
  environment: 'text not null',
  public_token: 'text not null',
  create_organization_enabled: 'integer not null',
  authorized_origins: 'text not null',
  redirect_urls: 'text not null',
  slug_pattern: 'text',
  pkce_required: 'text not null',
  created_at: 'text not null',
  updated_at: 'text not null',
  password_policy: 'text not null',
  luds_complexity: 'integer not null',
  luds_minimum_count: 'integer not null',
  session_max_lifetime_minutes: 'integer',
  display_watermark: 'integer not null',
} satisfies Columns<ProjectsTable>;

export interface SecretsTable {
  id: string;
  project_id: string;
  secret_hash: string;
  created_at: Timestamp;
}

const secretsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  secret_hash: 'text not null',
  created_at: 'text not null',
} satisfies Columns<SecretsTable>;

export interface OrganizationsTable {
  id: string;
  project_id: string;
  slug: string;
  name: string;
  logo_url: string;
  email_jit_provisioning: string;
  email_allowed_domains: Json;
  auth_methods: string;
  allowed_auth_methods: Json;
  mfa_policy: string;
  mfa_methods: string;
  allowed_mfa_methods: Json;
  trusted_metadata: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** `[{connection_id, display_name}]`, kept in step with `sso_connections` by the SSO product. */
  sso_active_connections: Json;
  sso_default_connection_id: string | null;
  sso_jit_provisioning: string;
  sso_jit_provisioning_allowed_connections: Json;
  /**
   * `[{domain, role_id}]`: roles granted by e-mail domain (source `email_assignment`). Optional
   * so that rows are written without it, as the schema before it had none; reads default to `[]`.
   */
  rbac_email_implicit_role_assignments?: Json;
  /** `RESTRICTED` lets members of `allowed_oauth_tenants` join; `NOT_ALLOWED` by default. */
  oauth_tenant_jit_provisioning?: string;
  /** `{google?: [hd…], microsoft?: [tid…]}`: the provider tenants the organization trusts. */
  allowed_oauth_tenants?: Json;
  /**
   * `[domain…]`: the domains the organization has verified by DNS, kept in step with
   * `domain_verifications` by the domains product. Optional as rows are written without it.
   */
  claimed_email_domains?: Json;
  /**
   * The longest its members' sessions live, in minutes from their start; null for the project's
   * lifetime alone. Optional as rows are written without it.
   */
  session_max_duration_minutes?: number | null;
}

const organizationsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  slug: 'text not null',
  name: 'text not null',
  logo_url: 'text not null',
  email_jit_provisioning: 'text not null',
  email_allowed_domains: 'text not null',
  auth_methods: 'text not null',
  allowed_auth_methods: 'text not null',
  mfa_policy: 'text not null',
  mfa_methods: 'text not null',
  allowed_mfa_methods: 'text not null',
  trusted_metadata: 'text not null',
  created_at: 'text not null',
  updated_at: 'text not null',
  sso_active_connections: 'text not null',
  sso_default_connection_id: 'text',
  sso_jit_provisioning: 'text not null',
  sso_jit_provisioning_allowed_connections: 'text not null',
  rbac_email_implicit_role_assignments: 'text not null',
  oauth_tenant_jit_provisioning: 'text not null',
  allowed_oauth_tenants: 'text not null',
  claimed_email_domains: 'text not null',
  session_max_duration_minutes: 'integer',
} satisfies Columns<OrganizationsTable>;

export interface OrganizationDomainsTable {
  project_id: string;
  organization_id: string;
  domain: string;
}

const organizationDomainsColumns = {
  project_id: 'text not null',
  organization_id: 'text not null',
  domain: 'text not null',
} satisfies Columns<OrganizationDomainsTable>;

/** A domain an organization proves by DNS (docs/protocol.md §7.12). */
export interface DomainVerificationsTable {
  id: string;
  project_id: string;
  organization_id: string;
  /** Lower-case host name. */
  domain: string;
  /**
   * The TXT value's random part, stored as is: it is published in public DNS anyway, proves
   * nothing without control of the zone, and admins are shown it again until it is found.
   */
  token: string;
  /** The domain while verified, else null: unique per project (one organization at a time). */
  verified_domain: string | null;
  verified_at: Timestamp | null;
  last_checked_at: Timestamp | null;
  /** Re-checks in a row that did not find the record; reset when it is found. */
  check_failures: number;
  created_at: Timestamp;
}

const domainVerificationsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  organization_id: 'text not null',
  domain: 'text not null',
  token: 'text not null',
  verified_domain: 'text',
  verified_at: 'text',
  last_checked_at: 'text',
  check_failures: 'integer not null',
  created_at: 'text not null',
} satisfies Columns<DomainVerificationsTable>;

export interface MembersTable {
  id: string;
  project_id: string;
  organization_id: string;
  email: string;
  email_id: string;
  email_verified: Flag;
  name: string;
  status: string;
  password_id: string;
  mfa_enrolled: Flag;
  mfa_phone_number: string;
  mfa_phone_verified: Flag;
  totp_registration_id: string;
  default_mfa_method: string;
  trusted_metadata: Json;
  untrusted_metadata: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * The BCP 47 tag of the member's last sign-in that carried one (docs/protocol.md §7). Optional
   * so that rows are written alike before and after migration 0015.
   */
  locale?: string | null;
  /**
   * When the member last completed a sign-in into the organization (a full session: new, or a
   * presented one a sign-in extended); null before the first. Optional as rows are written
   * without it.
   */
  last_sign_in_at?: Timestamp | null;
}

const membersColumns = {
  id: 'text not null',
  project_id: 'text not null',
  organization_id: 'text not null',
  email: 'text not null',
  email_id: 'text not null',
  email_verified: 'integer not null',
  name: 'text not null',
  status: 'text not null',
  password_id: 'text not null',
  mfa_enrolled: 'integer not null',
  mfa_phone_number: 'text not null',
  mfa_phone_verified: 'integer not null',
  totp_registration_id: 'text not null',
  default_mfa_method: 'text not null',
  trusted_metadata: 'text not null',
  untrusted_metadata: 'text not null',
  created_at: 'text not null',
  updated_at: 'text not null',
  locale: 'text',
  last_sign_in_at: 'text',
} satisfies Columns<MembersTable>;

export interface MemberRolesTable {
  member_id: string;
  role_id: string;
  source_type: string;
}

const memberRolesColumns = {
  member_id: 'text not null',
  role_id: 'text not null',
  source_type: 'text not null',
} satisfies Columns<MemberRolesTable>;

/** A project's own RBAC roles and resources; the built-in ones are in code (products/rbac). */
export interface RbacPoliciesTable {
  project_id: string;
  /** `[{role_id, description, permissions}]`, including extensions of `member` and `admin`. */
  roles: Json;
  /** `[{resource_id, description, actions}]`, custom resources only. */
  resources: Json;
  updated_at: Timestamp;
}

const rbacPoliciesColumns = {
  project_id: 'text not null',
  roles: 'text not null',
  resources: 'text not null',
  updated_at: 'text not null',
} satisfies Columns<RbacPoliciesTable>;

/** The tables of this area, by name (part of `Database`). */
export interface TenancyTables {
  projects: ProjectsTable;
  secrets: SecretsTable;
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  domain_verifications: DomainVerificationsTable;
  members: MembersTable;
  member_roles: MemberRolesTable;
  rbac_policies: RbacPoliciesTable;
}

/** Their columns as the migrations create them. */
export const TENANCY_COLUMNS = {
  projects: projectsColumns,
  secrets: secretsColumns,
  organizations: organizationsColumns,
  organization_domains: organizationDomainsColumns,
  domain_verifications: domainVerificationsColumns,
  members: membersColumns,
  member_roles: memberRolesColumns,
  rbac_policies: rbacPoliciesColumns,
} satisfies TableColumns<TenancyTables>;
