/**
 * Importing organizations and members from another system with their ids (`gatehouse import`):
 * each is created with its id, updated when that id is already here, or skipped with the reason.
 * Creations and updates go through the management API's own operations, so an import is refused
 * what a host backend would be refused.
 */
import type { Member, MemberStatus, Organization } from '@gatehouse/protocol';
import { isoAt, type Context } from '../../context.js';
import { isFailure, type Failure } from '../../result.js';
import { memberByEmail, memberById, updateMemberRow } from '../../tenancy/members/store.js';
import type { CreateOrganizationInput } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { OrganizationPatch } from '../../tenancy/organizations/update.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  manageCreateMember,
  manageCreateOrganization,
  manageUpdateMember,
  manageUpdateOrganization,
} from '../management/service.js';
import { gatehouseRoleId, idProblem } from './ids.js';
import { projectHolding, type ImportedTable } from './store.js';

/**
 * What became of one imported object; `note` says what of it could not come over, and `leftOut`
 * lists parts of it left out (`what: why`), which the summary counts with the skipped.
 */
export type ImportOutcome =
  | { outcome: 'created' | 'updated' | 'unchanged'; note?: string; leftOut?: string[] }
  | { outcome: 'skipped'; reason: string };

const skipped = (reason: string): ImportOutcome => ({ outcome: 'skipped', reason });
const refused = (failure: Failure): ImportOutcome =>
  skipped(`${failure.failure}: ${failure.message}`);

/**
 * Whether every field of `wanted` (but those left undefined) is already so in `current`,
 * compared as JSON: an import writes only what differs.
 *
 * @example
 * sameFields({ name: 'Ada', status: 'active' }, { name: 'Ada' }); // true
 */
export function sameFields(current: object, wanted: object): boolean {
  const have = current as Record<string, unknown>;
  return Object.entries(wanted).every(
    ([key, value]) => value === undefined || JSON.stringify(have[key]) === JSON.stringify(value),
  );
}

/**
 * Why the id cannot be kept in the project (malformed, of the other environment, or another
 * project's), or null when it can.
 */
export async function idRefusal(
  ctx: Context,
  project: Project,
  kind: 'organization' | 'member' | 'saml-connection' | 'oidc-connection',
  table: ImportedTable,
  id: string,
): Promise<string | null> {
  const problem = idProblem(kind, project.environment, id);
  if (problem) return problem;
  const holder = await projectHolding(ctx.db, table, id);
  return holder !== null && holder !== project.id ? `${id} belongs to another project` : null;
}

const SSO_JIT = ['ALL_ALLOWED', 'RESTRICTED', 'NOT_ALLOWED'] as const;

/** The organization's settings as a patch, without its SSO connections (imported after it). */
function organizationFields(org: Organization): OrganizationPatch & { organization_slug: string } {
  const ssoJit = SSO_JIT.find((v) => v === org.sso_jit_provisioning);
  return {
    organization_name: org.organization_name,
    organization_slug: org.organization_slug,
    organization_logo_url: org.organization_logo_url,
    email_jit_provisioning: org.email_jit_provisioning,
    email_allowed_domains: org.email_allowed_domains,
    auth_methods: org.auth_methods,
    allowed_auth_methods: org.auth_methods === 'RESTRICTED' ? org.allowed_auth_methods : undefined,
    mfa_policy: org.mfa_policy,
    mfa_methods: org.mfa_methods,
    allowed_mfa_methods: org.mfa_methods === 'RESTRICTED' ? org.allowed_mfa_methods : undefined,
    sso_jit_provisioning: ssoJit,
    rbac_email_implicit_role_assignments: org.rbac_email_implicit_role_assignments.map((a) => ({
      ...a,
      role_id: gatehouseRoleId(a.role_id),
    })),
    oauth_tenant_jit_provisioning: org.oauth_tenant_jit_provisioning,
    allowed_oauth_tenants: org.allowed_oauth_tenants,
  };
}

/**
 * Creates the organization with its id, or brings the one with that id up to date. Its SSO
 * settings that name connections wait for {@link importOrganizationSso}. A slug another
 * organization holds, or an id that cannot be kept, skips it.
 *
 * @example
 * const result = await importOrganization(ctx, project, organizationFromTheSource);
 */
export async function importOrganization(
  ctx: Context,
  project: Project,
  org: Organization,
): Promise<ImportOutcome> {
  const id = org.organization_id;
  const refusal = await idRefusal(ctx, project, 'organization', 'organizations', id);
  if (refusal) return skipped(refusal);
  const { organization_slug, ...patch } = organizationFields(org);
  const current = await organizationById(ctx.db, project.id, id);
  if (!current) {
    const input: CreateOrganizationInput = {
      id,
      organization_slug,
      organization_name: org.organization_name,
      organization_logo_url: org.organization_logo_url,
      email_jit_provisioning: org.email_jit_provisioning,
      email_allowed_domains: org.email_allowed_domains,
      auth_methods: org.auth_methods,
      allowed_auth_methods: patch.allowed_auth_methods,
      mfa_policy: org.mfa_policy,
      sso_jit_provisioning: patch.sso_jit_provisioning,
      rbac_email_implicit_role_assignments: patch.rbac_email_implicit_role_assignments,
      oauth_tenant_jit_provisioning: org.oauth_tenant_jit_provisioning,
      allowed_oauth_tenants: org.allowed_oauth_tenants,
    };
    const created = await manageCreateOrganization(ctx, project, input);
    if (isFailure(created)) return refused(created);
    // The MFA methods are not creation fields: set them as an update would.
    if (!sameFields(created, patch)) {
      const updated = await manageUpdateOrganization(ctx, project, id, patch);
      if (isFailure(updated)) return refused(updated);
    }
    return { outcome: 'created' };
  }
  if (current.organization_slug !== organization_slug) {
    return skipped(
      `its slug is ${organization_slug} in the source but ${current.organization_slug} here: ` +
        'change one of them first',
    );
  }
  if (sameFields(current, patch)) return { outcome: 'unchanged' };
  const updated = await manageUpdateOrganization(ctx, project, id, patch);
  return isFailure(updated) ? refused(updated) : { outcome: 'updated' };
}

/**
 * Sets the organization's SSO settings that name connections (its default connection and the
 * connections JIT provisioning allows), keeping only the connections that are here.
 */
export async function importOrganizationSso(
  ctx: Context,
  project: Project,
  org: Organization,
): Promise<ImportOutcome> {
  const current = await organizationById(ctx.db, project.id, org.organization_id);
  if (!current) return skipped('the organization is not here');
  const here = new Set(current.sso_active_connections.map((c) => c.connection_id));
  const patch: OrganizationPatch = {
    sso_default_connection_id:
      org.sso_default_connection_id !== null && here.has(org.sso_default_connection_id)
        ? org.sso_default_connection_id
        : null,
    sso_jit_provisioning_allowed_connections: org.sso_jit_provisioning_allowed_connections.filter(
      (id) => here.has(id),
    ),
  };
  if (sameFields(current, patch)) return { outcome: 'unchanged' };
  const updated = await manageUpdateOrganization(ctx, project, org.organization_id, patch);
  return isFailure(updated) ? refused(updated) : { outcome: 'updated' };
}

/**
 * The roles assigned to the member directly (the others follow from rules and connections), by
 * Gatehouse's ids.
 */
function directRoles(member: Member): string[] {
  const direct = member.roles.filter((r) => r.sources.some((s) => s.type === 'direct_assignment'));
  return [...new Set(direct.map((r) => gatehouseRoleId(r.role_id)))];
}

/** The member's fields an import sets after creation, as a member update takes them. */
function memberPatch(member: Member) {
  return {
    name: member.name,
    untrusted_metadata: member.untrusted_metadata,
    mfa_enrolled: member.mfa_enrolled,
    mfa_phone_number: member.mfa_phone_number,
    mfa_phone_number_verified: member.mfa_phone_number_verified,
    default_mfa_method: member.default_mfa_method,
  };
}

/**
 * Creates the member with its id in its organization (which must be here), or brings the one with
 * that id up to date: name, status, roles assigned directly, MFA settings and metadata. A deleted
 * member, an address another member of the organization holds, or an id that cannot be kept skips
 * it. Authenticator apps cannot come over: the note says so.
 *
 * @example
 * const result = await importMember(ctx, project, memberFromTheSource);
 */
export async function importMember(
  ctx: Context,
  project: Project,
  member: Member,
): Promise<ImportOutcome> {
  const id = member.member_id;
  if (member.status === 'deleted') return skipped('deleted in the source');
  const refusal = await idRefusal(ctx, project, 'member', 'members', id);
  if (refusal) return skipped(refusal);
  const orgId = member.organization_id;
  if (!(await organizationById(ctx.db, project.id, orgId))) {
    return skipped(`its organization ${orgId} is not here`);
  }
  const note = member.totp_registration_id
    ? 'its authenticator app cannot be exported: the member enrols again'
    : undefined;
  const roles = directRoles(member);
  const patch = memberPatch(member);
  const current = await memberById(ctx.db, project.id, id);
  let outcome: 'created' | 'updated';
  if (!current) {
    const holder = await memberByEmail(ctx.db, orgId, member.email_address);
    if (holder) {
      return skipped(`${member.email_address} already belongs to member ${holder.member_id}`);
    }
    const created = await manageCreateMember(ctx, project, orgId, {
      id,
      email_address: member.email_address,
      name: member.name,
      status: member.status,
      roles,
      emailVerified: member.email_address_verified,
    });
    if (isFailure(created)) return refused(created);
    outcome = 'created';
  } else {
    if (current.organization_id !== orgId) {
      return skipped(`${id} is a member of ${current.organization_id} here`);
    }
    const unchanged =
      sameFields(current, patch) &&
      sameFields(current, { status: member.status, trusted_metadata: member.trusted_metadata }) &&
      JSON.stringify(directRoles(current).sort()) === JSON.stringify([...roles].sort());
    if (unchanged) return { outcome: 'unchanged', ...(note ? { note } : {}) };
    outcome = 'updated';
  }
  const updated = await manageUpdateMember(ctx, project, orgId, id, { ...patch, roles });
  if (isFailure(updated)) {
    // The member is here; what the update refused is only a note.
    return { outcome, note: `${updated.failure}: ${updated.message}` };
  }
  const status: Exclude<MemberStatus, 'deleted'> = member.status;
  await updateMemberRow(ctx.db, id, {
    status,
    ...(member.trusted_metadata
      ? { trusted_metadata: JSON.stringify(member.trusted_metadata) }
      : {}),
    updated_at: isoAt(ctx.now()),
  });
  return { outcome, ...(note ? { note } : {}) };
}
