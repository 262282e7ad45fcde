/**
 * A signed-in member changing their own organization (`PUT /sdk/v1/b2b/organizations/me`): the
 * management API's update, after the rules that bind members and not the host. A member may
 * allow for joining (by e-mail or as a Google Workspace domain) only their own verified domain,
 * and may change e-mail role rules only with `stytch.organization`
 * `update.settings.implicit-roles` and for roles they hold.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { Failure } from '../../result.js';
import { manageUpdateOrganization } from '../management/service.js';
import { roleIds } from '../members/store.js';
import type { Project } from '../projects/service.js';
import { refuseRoleGrants } from '../rbac/grants.js';
import { organizationNotFound } from './errors.js';
import { refuseMemberDomains, refuseMemberTenants } from './jit-domains.js';
import { normalizeEmailRoles } from './service.js';
import { organizationById } from './store.js';
import type { OrganizationPatch } from './update.js';

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
  const current = await organizationById(ctx.db, project.id, member.organization_id);
  if (!current) return organizationNotFound();
  if (patch.rbac_email_implicit_role_assignments !== undefined) {
    const toRules = (rules: Organization['rbac_email_implicit_role_assignments']) =>
      (rules ?? []).map((r) => ({ key: r.domain, role_id: r.role_id }));
    const refused = await refuseRoleGrants(
      ctx.db,
      project.id,
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
    const refused = refuseMemberTenants(
      member,
      current.allowed_oauth_tenants ?? {},
      patch.allowed_oauth_tenants,
    );
    if (refused) return refused;
  }
  return manageUpdateOrganization(ctx, project, member.organization_id, patch);
}
