/** The organizations product's store: organization rows, their JIT domains, and the wire shape of §5. */
import type {
  AllowedOAuthTenants,
  EmailRoleAssignment,
  Organization,
  SsoConnectionRef,
} from '@gatehouse/protocol';
import type {
  AuthMethod,
  AuthMethodsPolicy,
  EmailJitProvisioning,
  MfaPolicy,
} from '@gatehouse/protocol';
import type { Db } from '../../context.js';
import { preparedQuery } from '../../store/prepared.js';
import type { OrganizationsTable } from '../../store/schema.js';
import { insertUnlessDuplicate } from '../../store/unique.js';
import { isPublicEmailDomain } from './jit-domains.js';

/** The wire form of an organization row. */
export function toOrganization(row: OrganizationsTable): Organization {
  return {
    organization_id: row.id,
    organization_slug: row.slug,
    organization_name: row.name,
    organization_logo_url: row.logo_url,
    // Rows written before connections carried their label have none: the provider's empty value.
    sso_active_connections: (JSON.parse(row.sso_active_connections) as SsoConnectionRef[]).map(
      (c) => ({ ...c, identity_provider: c.identity_provider ?? '' }),
    ),
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
    rbac_email_implicit_role_assignments: JSON.parse(
      row.rbac_email_implicit_role_assignments ?? '[]',
    ) as EmailRoleAssignment[],
    oauth_tenant_jit_provisioning: (row.oauth_tenant_jit_provisioning ??
      'NOT_ALLOWED') as EmailJitProvisioning,
    allowed_oauth_tenants: JSON.parse(row.allowed_oauth_tenants ?? '{}') as AllowedOAuthTenants,
    // The domains it verified by DNS (products/domains), kept in step there.
    claimed_email_domains: JSON.parse(row.claimed_email_domains ?? '[]') as string[],
    // Fields of the provider's organization that Gatehouse has no data for: its empty values.
    first_party_connected_apps_allowed_type: '',
    allowed_first_party_connected_apps: [],
    third_party_connected_apps_allowed_type: '',
    allowed_third_party_connected_apps: [],
    custom_roles: [],
    // Gatehouse's own field: null (or a row from before the column) for no limit of its own.
    session_max_duration_minutes: row.session_max_duration_minutes ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Inserts an organization with its JIT domains; false when its slug is taken, including by a
 * concurrent call whose row the caller's check could not see yet (the unique index decides).
 */
export async function insertOrganization(
  db: Db,
  row: OrganizationsTable,
  domains: readonly string[],
): Promise<boolean> {
  const inserted = await insertUnlessDuplicate(db, (d) =>
    d.insertInto('organizations').values(row).execute(),
  );
  if (!inserted) return false;
  if (domains.length > 0) {
    await db
      .insertInto('organization_domains')
      .values(
        domains.map((domain) => ({ project_id: row.project_id, organization_id: row.id, domain })),
      )
      .execute();
  }
  return true;
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

/**
 * The organizations that list a provider tenant among their allowed ones. Tenants are names of
 * letters, digits, dots and dashes (checked on the way in), so the rough text match is safe; the
 * exact list is checked after.
 */
export async function organizationsAllowingTenant(
  db: Db,
  projectId: string,
  provider: 'google' | 'microsoft',
  tenant: string,
): Promise<Organization[]> {
  if (!/^[a-z0-9.-]{1,253}$/.test(tenant)) return [];
  const rows = await db
    .selectFrom('organizations')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('allowed_oauth_tenants', 'like', `%"${tenant}"%`)
    .execute();
  return rows
    .map(toOrganization)
    .filter((org) => (org.allowed_oauth_tenants?.[provider] ?? []).includes(tenant));
}

/** Writes an organization's changed columns. */
export async function updateOrganizationRow(
  db: Db,
  projectId: string,
  organizationId: string,
  set: Partial<OrganizationsTable>,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set(set)
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .execute();
}

/**
 * Gives an organization a new slug; false when another organization of the project has it,
 * including one renamed or created by a concurrent call (the unique index decides).
 */
export function renameOrganization(
  db: Db,
  projectId: string,
  organizationId: string,
  slug: string,
): Promise<boolean> {
  return insertUnlessDuplicate(db, (d) =>
    d
      .updateTable('organizations')
      .set({ slug })
      .where('id', '=', organizationId)
      .where('project_id', '=', projectId)
      .execute(),
  );
}

/**
 * Moves an organization's `updated_at` from `from` to `to` if it still is `from`; false when a
 * concurrent change moved it first or the organization is gone. The row stays locked until the
 * transaction ends.
 */
export async function advanceOrganizationUpdatedAt(
  db: Db,
  projectId: string,
  organizationId: string,
  from: string,
  to: string,
): Promise<boolean> {
  const result = await db
    .updateTable('organizations')
    .set({ updated_at: to })
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .where('updated_at', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Locks an organization's row until the transaction ends, changing nothing: changes that must
 * see every concurrent change of its members (the last admin, §7.10) take it first.
 */
export async function lockOrganization(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .execute();
}

/** Replaces the domains whose addresses may join the organization by e-mail. */
export async function replaceJitDomains(
  db: Db,
  projectId: string,
  organizationId: string,
  domains: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('organization_domains')
    .where('organization_id', '=', organizationId)
    .execute();
  if (domains.length === 0) return;
  await db
    .insertInto('organization_domains')
    .values(
      domains.map((domain) => ({ project_id: projectId, organization_id: organizationId, domain })),
    )
    .execute();
}
