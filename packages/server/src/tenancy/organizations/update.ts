/** Changing an organization's settings: name, slug, logo, e-mail JIT domains, its auth and MFA policies and its session limit. */
import {
  AUTH_METHODS,
  MFA_METHODS,
  type AuthMethod,
  type AuthMethodsPolicy,
  type EmailJitProvisioning,
  type EmailRoleAssignment,
  type MfaMethod,
  type MfaMethodsPolicy,
  type MfaPolicy,
  type Organization,
} from '@gatehouse/protocol';
import { isoAt, type Db } from '../../context.js';
import type { OrganizationsTable } from '../../store/schema.js';
import { replaceEmailRoles } from '../members/store-roles.js';
import { normalizeEmailRoles, normalizeTenants, type CreateOrganizationInput } from './service.js';
import {
  organizationById,
  renameOrganization,
  replaceJitDomains,
  updateOrganizationRow,
} from './store.js';

/** The settings an update may change; absent fields stay as they are. */
export interface OrganizationPatch {
  organization_name?: string | undefined;
  /** Checked against the slug rule by the caller (`SLUG_PATTERN`); unique in the project. */
  organization_slug?: string | undefined;
  organization_logo_url?: string | undefined;
  email_jit_provisioning?: EmailJitProvisioning | undefined;
  /** Replaces the whole list. Callers refuse public mail domains first (`refusePublicDomains`). */
  email_allowed_domains?: string[] | undefined;
  auth_methods?: AuthMethodsPolicy | undefined;
  allowed_auth_methods?: AuthMethod[] | undefined;
  mfa_policy?: MfaPolicy | undefined;
  mfa_methods?: MfaMethodsPolicy | undefined;
  allowed_mfa_methods?: MfaMethod[] | undefined;
  sso_jit_provisioning?: 'ALL_ALLOWED' | 'RESTRICTED' | 'NOT_ALLOWED' | undefined;
  /** Connections of this organization (checked by the caller). */
  sso_jit_provisioning_allowed_connections?: string[] | undefined;
  /** An active connection of this organization (checked by the caller), or null for none. */
  sso_default_connection_id?: string | null | undefined;
  /** Roles by e-mail domain (role ids checked by the caller); members' roles follow at once. */
  rbac_email_implicit_role_assignments?: EmailRoleAssignment[] | undefined;
  oauth_tenant_jit_provisioning?: EmailJitProvisioning | undefined;
  /** Replaces the lists it names; a provider left out keeps its list. */
  allowed_oauth_tenants?: CreateOrganizationInput['allowed_oauth_tenants'] | undefined;
  /**
   * Minutes from a session's start; null for none. Within the project's lifetime (checked by
   * the caller); live sessions are held to it at their next check.
   */
  session_max_duration_minutes?: number | null | undefined;
}

/**
 * Applies a patch to an organization of the project; null when there is none, `'slug_taken'`
 * when another organization of the project has the new slug (then run it in `allOrNothing`, so
 * nothing else of the patch stays). As at creation,
 * an `ALL_ALLOWED` policy lists every method, so the organization object stays self-consistent.
 * Several statements: run it in a transaction when the patch changes the allowed domains or the
 * e-mail role rules.
 *
 * @example
 * await updateOrganization(db, project.id, org.organization_id, { mfa_policy: 'REQUIRED_FOR_ALL' }, Date.now());
 */
export async function updateOrganization(
  db: Db,
  projectId: string,
  organizationId: string,
  patch: OrganizationPatch,
  now: number,
): Promise<Organization | null | 'slug_taken'> {
  const current = await organizationById(db, projectId, organizationId);
  if (!current) return null;
  const slug = patch.organization_slug?.toLowerCase();
  if (slug !== undefined && slug !== current.organization_slug) {
    if (!(await renameOrganization(db, projectId, organizationId, slug))) return 'slug_taken';
  }
  const authMethods = patch.auth_methods ?? current.auth_methods;
  const mfaMethods = patch.mfa_methods ?? current.mfa_methods;
  const allowedAuth =
    authMethods === 'ALL_ALLOWED'
      ? [...AUTH_METHODS]
      : (patch.allowed_auth_methods ?? current.allowed_auth_methods);
  const allowedMfa =
    mfaMethods === 'ALL_ALLOWED'
      ? [...MFA_METHODS]
      : (patch.allowed_mfa_methods ?? current.allowed_mfa_methods);
  const set: Partial<OrganizationsTable> = {
    auth_methods: authMethods,
    allowed_auth_methods: JSON.stringify([...new Set(allowedAuth)]),
    mfa_methods: mfaMethods,
    allowed_mfa_methods: JSON.stringify(MFA_METHODS.filter((m) => allowedMfa.includes(m))),
    updated_at: isoAt(now),
  };
  if (patch.organization_name !== undefined) set.name = patch.organization_name;
  if (patch.organization_logo_url !== undefined) set.logo_url = patch.organization_logo_url;
  if (patch.mfa_policy !== undefined) set.mfa_policy = patch.mfa_policy;
  if (patch.sso_jit_provisioning !== undefined)
    set.sso_jit_provisioning = patch.sso_jit_provisioning;
  if (patch.sso_jit_provisioning_allowed_connections !== undefined) {
    set.sso_jit_provisioning_allowed_connections = JSON.stringify([
      ...new Set(patch.sso_jit_provisioning_allowed_connections),
    ]);
  }
  if (patch.sso_default_connection_id !== undefined) {
    set.sso_default_connection_id = patch.sso_default_connection_id;
  }
  if (patch.session_max_duration_minutes !== undefined) {
    set.session_max_duration_minutes = patch.session_max_duration_minutes;
  }
  if (patch.email_jit_provisioning !== undefined) {
    set.email_jit_provisioning = patch.email_jit_provisioning;
  }
  if (patch.oauth_tenant_jit_provisioning !== undefined) {
    set.oauth_tenant_jit_provisioning = patch.oauth_tenant_jit_provisioning;
  }
  if (patch.allowed_oauth_tenants !== undefined) {
    set.allowed_oauth_tenants = JSON.stringify(
      normalizeTenants(current.allowed_oauth_tenants ?? {}, patch.allowed_oauth_tenants),
    );
  }
  if (patch.email_allowed_domains !== undefined) {
    const domains = [...new Set(patch.email_allowed_domains.map((d) => d.toLowerCase()))];
    set.email_allowed_domains = JSON.stringify(domains);
    // The lookup table that discovery reads must say the same as the organization's own list.
    await replaceJitDomains(db, projectId, organizationId, domains);
  }
  if (patch.rbac_email_implicit_role_assignments !== undefined) {
    const rules = normalizeEmailRoles(patch.rbac_email_implicit_role_assignments);
    set.rbac_email_implicit_role_assignments = JSON.stringify(rules);
    await replaceEmailRoles(db, organizationId, rules);
  }
  await updateOrganizationRow(db, projectId, organizationId, set);
  return organizationById(db, projectId, organizationId);
}
