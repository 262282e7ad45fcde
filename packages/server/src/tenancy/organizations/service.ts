/** Organizations: creation, and the rules of who may join and how they sign in. */
import {
  AUTH_METHODS,
  MFA_METHODS,
  type AllowedOAuthTenants,
  type AuthMethod,
  type AuthMethodsPolicy,
  type EmailJitProvisioning,
  type EmailRoleAssignment,
  type Environment,
  type MfaPolicy,
  type Organization,
} from '@gatehouse/protocol';
import { allowedOAuthTenants } from '@gatehouse/protocol/endpoints';
import { isoAt, type Db } from '../../context.js';
import { fail, type Failure } from '../../result.js';
import { newId } from '../../crypto/random.js';
import type { OrganizationsTable } from '../../store/schema.js';
import { isPublicEmailDomain } from './jit-domains.js';
import { insertOrganization, organizationBySlug, toOrganization } from './store.js';

/** Fields accepted when creating an organization. */
export interface CreateOrganizationInput {
  /** An `organization-{env}-{uuid}` kept from another system (an import); a new one by default. */
  id?: string;
  organization_name: string;
  organization_slug: string;
  email_jit_provisioning?: EmailJitProvisioning;
  email_allowed_domains?: string[];
  auth_methods?: AuthMethodsPolicy;
  allowed_auth_methods?: AuthMethod[];
  mfa_policy?: MfaPolicy;
  organization_logo_url?: string;
  /** Who may join through SSO without an account (default `ALL_ALLOWED`). */
  sso_jit_provisioning?: 'ALL_ALLOWED' | 'RESTRICTED' | 'NOT_ALLOWED';
  /** Roles by e-mail domain; role ids checked by the caller. */
  rbac_email_implicit_role_assignments?: EmailRoleAssignment[];
  /** Whether members of `allowed_oauth_tenants` may join by OAuth (default `NOT_ALLOWED`). */
  oauth_tenant_jit_provisioning?: EmailJitProvisioning;
  allowed_oauth_tenants?: AllowedOAuthTenants;
}

/**
 * Tenant lists lowercased and without duplicates; a provider the patch leaves out keeps the
 * current list.
 */
export function normalizeTenants(
  current: AllowedOAuthTenants,
  patch: AllowedOAuthTenants,
): AllowedOAuthTenants {
  const google = patch.google ?? current.google;
  const microsoft = patch.microsoft ?? current.microsoft;
  return {
    ...(google ? { google: [...new Set(google.map((d) => d.toLowerCase()))] } : {}),
    ...(microsoft ? { microsoft: [...new Set(microsoft.map((t) => t.toLowerCase()))] } : {}),
  };
}

/**
 * Refuses tenant lists the wire contract refuses (the management API checks them on the way in;
 * the CLI and the in-process admin come through here), so every path stores the same.
 */
export function refuseBadTenants(tenants: AllowedOAuthTenants | undefined): Failure | null {
  if (tenants === undefined) return null;
  const parsed = allowedOAuthTenants.safeParse(tenants);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = ['allowed_oauth_tenants', ...(issue?.path ?? [])].join('.');
  return fail('invalid_request', `${where}: ${issue?.message ?? 'is not valid'}`);
}

/** Slugs: 2–128 characters of lowercase letters, digits and `-._~`. */
export const SLUG_PATTERN = /^[a-z0-9._~-]{2,128}$/;

/** E-mail role rules with lowercased domains and without duplicates. */
export function normalizeEmailRoles(assignments: EmailRoleAssignment[]): EmailRoleAssignment[] {
  const seen = new Set<string>();
  return assignments
    .map((a) => ({ domain: a.domain.trim().toLowerCase(), role_id: a.role_id }))
    .filter((a) => {
      const key = `${a.domain} ${a.role_id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The domain part of an e-mail address, lowercased. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Creates an organization. Returns `'slug_taken'` when the slug is in use in the project,
 * including by a concurrent call that inserted it after the check.
 *
 * @example
 * const org = await createOrganization(db, project.id, 'test', { organization_name: 'Acme', organization_slug: 'acme' });
 */
export async function createOrganization(
  db: Db,
  projectId: string,
  env: Environment,
  input: CreateOrganizationInput,
  now: number,
): Promise<Organization | 'slug_taken'> {
  const slug = input.organization_slug.toLowerCase();
  const taken = await organizationBySlug(db, projectId, slug);
  if (taken) return 'slug_taken';
  const domains = [...new Set((input.email_allowed_domains ?? []).map((d) => d.toLowerCase()))];
  const at = isoAt(now);
  const row: OrganizationsTable = {
    id: input.id ?? newId('organization', env),
    project_id: projectId,
    slug,
    name: input.organization_name,
    logo_url: input.organization_logo_url ?? '',
    email_jit_provisioning:
      input.email_jit_provisioning ?? (domains.length > 0 ? 'RESTRICTED' : 'NOT_ALLOWED'),
    email_allowed_domains: JSON.stringify(domains),
    auth_methods: input.auth_methods ?? 'ALL_ALLOWED',
    allowed_auth_methods: JSON.stringify(
      input.auth_methods === 'RESTRICTED' ? (input.allowed_auth_methods ?? []) : [...AUTH_METHODS],
    ),
    mfa_policy: input.mfa_policy ?? 'OPTIONAL',
    mfa_methods: 'ALL_ALLOWED',
    allowed_mfa_methods: JSON.stringify(MFA_METHODS),
    trusted_metadata: '{}',
    created_at: at,
    updated_at: at,
    sso_active_connections: '[]',
    sso_default_connection_id: null,
    sso_jit_provisioning: input.sso_jit_provisioning ?? 'ALL_ALLOWED',
    sso_jit_provisioning_allowed_connections: '[]',
    // Left out when empty, so the row also fits a database one migration older (upgrades).
    ...(input.rbac_email_implicit_role_assignments?.length
      ? {
          rbac_email_implicit_role_assignments: JSON.stringify(
            normalizeEmailRoles(input.rbac_email_implicit_role_assignments),
          ),
        }
      : {}),
    ...(input.oauth_tenant_jit_provisioning
      ? { oauth_tenant_jit_provisioning: input.oauth_tenant_jit_provisioning }
      : {}),
    ...(input.allowed_oauth_tenants
      ? { allowed_oauth_tenants: JSON.stringify(normalizeTenants({}, input.allowed_oauth_tenants)) }
      : {}),
  };
  // The check above cannot see a concurrent call's uncommitted slug: the unique index decides.
  if (!(await insertOrganization(db, row, domains))) return 'slug_taken';
  return toOrganization(row);
}

/** Whether a non-member with this e-mail may join the organization by e-mail (JIT). */
export type JitDecision =
  'allowed' | 'email_jit_provisioning_not_allowed' | 'invalid_email_for_jit_provisioning';

/**
 * Applies the organization's e-mail JIT policy to an address. A public mail provider's domain
 * never qualifies, even if listed (e.g. stored before such domains were refused).
 */
export function jitDecision(org: Organization, email: string): JitDecision {
  if (org.email_jit_provisioning !== 'RESTRICTED') return 'email_jit_provisioning_not_allowed';
  const domain = domainOf(email);
  return org.email_allowed_domains.includes(domain) && !isPublicEmailDomain(domain)
    ? 'allowed'
    : 'invalid_email_for_jit_provisioning';
}

/** Whether the organization accepts a primary authentication method. */
export function allowsAuthMethod(org: Organization, method: AuthMethod): boolean {
  return org.auth_methods === 'ALL_ALLOWED' || org.allowed_auth_methods.includes(method);
}
