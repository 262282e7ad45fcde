/**
 * A signed-in member changing their own organization (`PUT /sdk/v1/b2b/organizations/me`): the
 * management API's update, after the rules that bind members and not the host. A member may
 * allow for joining (by e-mail or as a Google Workspace domain) only their own verified domain,
 * as a trusted Microsoft tenant only the tenant of their own linked Microsoft account, and may change e-mail role rules only with `stytch.organization`
 * `update.settings.implicit-roles` and for roles they hold.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import { linkedMicrosoftTenants } from '../../auth/federated/registrations.js';
import type { Context, Db } from '../../context.js';
import { allOrNothing, type Failure } from '../../result.js';
import { manageUpdateOrganization } from '../management/service.js';
import type { Project } from '../../tenancy/projects/service.js';
import { refuseRoleGrants } from '../../tenancy/rbac/grants.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import {
  refuseMemberDomains,
  refuseMemberTenants,
} from '../../tenancy/organizations/jit-domains.js';
import { normalizeEmailRoles } from '../../tenancy/organizations/service.js';
import {
  advanceOrganizationUpdatedAt,
  organizationById,
} from '../../tenancy/organizations/store.js';
import { claimUpdate } from '../../tenancy/updated-at.js';
import { keepingAnAdmin } from '../../tenancy/members/last-admin.js';
import type { OrganizationPatch } from '../../tenancy/organizations/update.js';

/** The member making the change, with the roles they hold in their session (`sessionRoleIds`). */
interface MemberActor {
  member: Member;
  roles: readonly string[];
}

/**
 * Applies a member's patch to their organization, or refuses it: 400 `invalid_email_domain` for a
 * domain other than their own, 403 `unauthorized_action` for a role rule they may not change,
 * 409 `stale_update` when `updated_at` is given and the stored one differs, 409 `last_admin` when
 * dropping an e-mail role rule would leave the organization without an active admin.
 *
 * @example
 * const org = await memberUpdateOrganization(ctx, project, { member, roles }, { organization_name: 'Acme' });
 */
export async function memberUpdateOrganization(
  ctx: Context,
  project: Project,
  actor: MemberActor,
  patch: OrganizationPatch & { updated_at?: string | undefined },
): Promise<Organization | Failure> {
  const organizationId = actor.member.organization_id;
  const { updated_at: expected, ...changes } = patch;
  return allOrNothing(ctx.db, async (trx) => {
    // Claims the row first (a conditional update that locks it), so the lists checked are the
    // lists replaced and a screen loaded before a concurrent change cannot overwrite it.
    const version = await claimUpdate(
      {
        read: async () =>
          (await organizationById(trx, project.id, organizationId))?.updated_at ?? null,
        advance: (from, to) =>
          advanceOrganizationUpdatedAt(trx, project.id, organizationId, from, to),
      },
      expected,
      ctx.now(),
      'organization',
    );
    if (version === null) return organizationNotFound();
    if (typeof version !== 'string') return version;
    const current = await organizationById(trx, project.id, organizationId);
    if (!current) return organizationNotFound();
    const refused = await refuseMemberPatch(trx, project.id, actor, current, changes);
    if (refused) return refused;
    // Its clock reads the claimed updated_at, so the row keeps the value that moved forward.
    const change = () =>
      manageUpdateOrganization(
        { ...ctx, db: trx, now: () => Date.parse(version) },
        project,
        organizationId,
        changes,
      );
    // Dropping an e-mail rule takes its roles away at once: it must leave an admin.
    return changes.rbac_email_implicit_role_assignments === undefined
      ? change()
      : keepingAnAdmin(trx, project.id, organizationId, change);
  });
}

/** The first rule of a member's patch that the member may not apply, or null. */
async function refuseMemberPatch(
  db: Db,
  projectId: string,
  { member, roles }: MemberActor,
  current: Organization,
  patch: OrganizationPatch,
): Promise<Failure | null> {
  if (patch.rbac_email_implicit_role_assignments !== undefined) {
    const toRules = (rules: Organization['rbac_email_implicit_role_assignments']) =>
      (rules ?? []).map((r) => ({ key: r.domain, role_id: r.role_id }));
    const refused = await refuseRoleGrants(
      db,
      projectId,
      { memberRoles: roles },
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
      current.claimed_email_domains,
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
