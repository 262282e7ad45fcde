/**
 * A signed-in member changing their own organization (`PUT /sdk/v1/b2b/organizations/me`): the
 * management API's update, after the rules that bind members and not the host. A member may
 * allow for joining (by e-mail or as a Google Workspace domain) only their own verified domain,
 * as a trusted Microsoft tenant only the tenant of their own linked Microsoft account, and may change e-mail role rules only with `stytch.organization`
 * `update.settings.implicit-roles` and for roles they hold.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import { linkedMicrosoftTenants } from '../../auth/federated/registrations.js';
import { isoAt, type Context, type Db } from '../../context.js';
import { allOrNothing, type Failure } from '../../result.js';
import { manageUpdateOrganization } from '../management/service.js';
import { roleIds } from '../../tenancy/members/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { refuseRoleGrants } from '../../tenancy/rbac/grants.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import {
  refuseMemberDomains,
  refuseMemberTenants,
} from '../../tenancy/organizations/jit-domains.js';
import { normalizeEmailRoles } from '../../tenancy/organizations/service.js';
import { organizationById, updateOrganizationRow } from '../../tenancy/organizations/store.js';
import type { OrganizationPatch } from '../../tenancy/organizations/update.js';

/**
 * Applies a member's patch to their organization, or refuses it: 400 `invalid_email_domain` for a
 * domain other than their own, 403 `unauthorized_action` for a role rule they may not change.
 *
 * @example
 * const org = await memberUpdateOrganization(ctx, project, member, { organization_name: 'Acme' });
 */
export async function memberUpdateOrganization(
  ctx: Context,
  project: Project,
  member: Member,
  patch: OrganizationPatch,
): Promise<Organization | Failure> {
  const organizationId = member.organization_id;
  return allOrNothing(ctx.db, async (trx) => {
    // Locks the row first, so the lists checked are the lists replaced: a concurrent change
    // cannot slip between the check and the update.
    await updateOrganizationRow(trx, project.id, organizationId, { updated_at: isoAt(ctx.now()) });
    const current = await organizationById(trx, project.id, organizationId);
    if (!current) return organizationNotFound();
    const refused = await refuseMemberPatch(trx, project.id, member, current, patch);
    if (refused) return refused;
    return manageUpdateOrganization({ ...ctx, db: trx }, project, organizationId, patch);
  });
}

/** The first rule of a member's patch that the member may not apply, or null. */
async function refuseMemberPatch(
  db: Db,
  projectId: string,
  member: Member,
  current: Organization,
  patch: OrganizationPatch,
): Promise<Failure | null> {
  if (patch.rbac_email_implicit_role_assignments !== undefined) {
    const toRules = (rules: Organization['rbac_email_implicit_role_assignments']) =>
      (rules ?? []).map((r) => ({ key: r.domain, role_id: r.role_id }));
    const refused = await refuseRoleGrants(
      db,
      projectId,
      { memberRoles: roleIds(member) },
      toRules(current.rbac_email_implicit_role_assignments),
      toRules(normalizeEmailRoles(patch.rbac_email_implicit_role_assignments)),
    );
    if (refused) return refused;
  }
  if (patch.email_allowed_domains !== undefined) {
    const refused = refuseMemberDomains(
      member,
      current.email_allowed_domains,
      patch.email_allowed_domains,
    );
    if (refused) return refused;
  }
  if (patch.allowed_oauth_tenants !== undefined) {
    return refuseMemberTenants(
      member,
      current.allowed_oauth_tenants ?? {},
      patch.allowed_oauth_tenants,
      await linkedMicrosoftTenants(db, member.member_id),
    );
  }
  return null;
}
