/** Organizations: creation, lookups, and the wire shape of §5. */
import {
  AUTH_METHODS,
  MFA_METHODS,
  type AuthMethod,
  type AuthMethodsPolicy,
  type EmailJitProvisioning,
  type Environment,
  type MfaPolicy,
  type Organization,
  type SsoConnectionRef,
} from '@gatehouse/protocol';
import { isoAt, type Db } from '../../context.js';
import { newId } from '../../crypto/random.js';
import { preparedQuery } from '../../store/prepared.js';
import type { OrganizationsTable } from '../../store/schema.js';
import { insertUnlessDuplicate } from '../../store/unique.js';
import { isPublicEmailDomain } from './jit-domains.js';

/** Fields accepted when creating an organization. */
export interface CreateOrganizationInput {
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
}

/** Slugs: 2–128 characters of lowercase letters, digits and `-._~`. */
export const SLUG_PATTERN = /^[a-z0-9._~-]{2,128}$/;

/** The wire form of an organization row. */
export function toOrganization(row: OrganizationsTable): Organization {
  return {
    organization_id: row.id,
    organization_slug: row.slug,
    organization_name: row.name,
    organization_logo_url: row.logo_url,
    sso_active_connections: JSON.parse(row.sso_active_connections) as SsoConnectionRef[],
    sso_default_connection_id: row.sso_default_connection_id,
    email_jit_provisioning: row.email_jit_provisioning as EmailJitProvisioning,
    email_allowed_domains: JSON.parse(row.email_allowed_domains) as string[],
    auth_methods: row.auth_methods as AuthMethodsPolicy,
    allowed_auth_methods: JSON.parse(row.allowed_auth_methods) as AuthMethod[],
    mfa_policy: row.mfa_policy as MfaPolicy,
    mfa_methods: row.mfa_methods as Organization['mfa_methods'],
    allowed_mfa_methods: JSON.parse(row.allowed_mfa_methods) as Organization['allowed_mfa_methods'],
    trusted_metadata: JSON.parse(row.trusted_metadata) as Record<string, unknown>,
    sso_jit_provisioning: row.sso_jit_provisioning,
    email_invites: 'ALL_ALLOWED',
    sso_jit_provisioning_allowed_connections: JSON.parse(
      row.sso_jit_provisioning_allowed_connections,
    ) as string[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
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
    id: newId('organization', env),
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
  };
  // The check above cannot see a concurrent call's uncommitted slug: the unique index decides.
  const inserted = await insertUnlessDuplicate(db, (d) =>
    d.insertInto('organizations').values(row).execute(),
  );
  if (!inserted) return 'slug_taken';
  if (domains.length > 0) {
    await db
      .insertInto('organization_domains')
      .values(domains.map((domain) => ({ project_id: projectId, organization_id: row.id, domain })))
      .execute();
  }
  return toOrganization(row);
}

// Every session refresh loads its organization: built once (see `preparedQuery`).
const organizationRowById = preparedQuery((db, p: { id: string; projectId: string }) =>
  db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', p.id)
    .where('project_id', '=', p.projectId),
);

/** An organization of the project by id, or null (ids of other projects are not found). */
export async function organizationById(
  db: Db,
  projectId: string,
  id: string,
): Promise<Organization | null> {
  const [row] = await organizationRowById(db, { id, projectId });
  return row ? toOrganization(row) : null;
}

/** An organization of the project by slug, or null. */
export async function organizationBySlug(
  db: Db,
  projectId: string,
  slug: string,
): Promise<Organization | null> {
  const row = await db
    .selectFrom('organizations')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('slug', '=', slug.toLowerCase())
    .executeTakeFirst();
  return row ? toOrganization(row) : null;
}

/** Organizations of the project by id, in no particular order. */
export async function organizationsByIds(
  db: Db,
  projectId: string,
  ids: string[],
): Promise<Organization[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('organizations')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return rows.map(toOrganization);
}

/**
 * Organizations that let anyone with an address at `domain` join by e-mail. None for a public
 * mail provider's domain, even if an organization lists it.
 */
export async function organizationsJoinableByDomain(
  db: Db,
  projectId: string,
  domain: string,
): Promise<Organization[]> {
  if (isPublicEmailDomain(domain)) return [];
  const rows = await db
    .selectFrom('organizations')
    .innerJoin('organization_domains', 'organization_domains.organization_id', 'organizations.id')
    .selectAll('organizations')
    .where('organization_domains.project_id', '=', projectId)
    .where('organization_domains.domain', '=', domain.toLowerCase())
    .where('organizations.email_jit_provisioning', '=', 'RESTRICTED')
    .execute();
  return rows.map(toOrganization);
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
