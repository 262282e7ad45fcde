/**
 * An organization's own roles (the provider's `rbac.organizations.getOrgPolicy` and
 * `setOrgPolicy`): Gatehouse keeps custom roles in the project's policy only, so every
 * organization's own policy is empty, and only an empty one can be set.
 */
import type { RbacRole } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';

/** An organization's own roles: none, for an organization of the project. */
type OrgPolicy = { org_policy: { roles: RbacRole[] } };

/**
 * The organization's own policy: no roles, as the provider's SDK expects for an organization
 * without organization-specific roles; 404 `organization_not_found` for another project's.
 *
 * @example
 * const { org_policy } = unwrap(await orgPolicy(ctx, project, organizationId));
 */
export async function orgPolicy(
  ctx: Context,
  project: Project,
  organizationId: string,
): Promise<OrgPolicy | Failure> {
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  return { org_policy: { roles: [] } };
}

/**
 * Sets the organization's own policy: an empty one is what it already is; roles are refused
 * (400 `invalid_request`), since silently dropping them would leave the host believing they
 * grant something.
 *
 * @example
 * unwrap(await setOrgPolicy(ctx, project, organizationId, body.org_policy.roles));
 */
export async function setOrgPolicy(
  ctx: Context,
  project: Project,
  organizationId: string,
  roles: readonly unknown[],
): Promise<OrgPolicy | Failure> {
  const current = await orgPolicy(ctx, project, organizationId);
  if (isFailure(current) || roles.length === 0) return current;
  return fail(
    'invalid_request',
    "Organizations have no roles of their own: define custom roles in the project's policy (PUT /v1/b2b/rbac/policy).",
  );
}
