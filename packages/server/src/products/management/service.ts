/** The management API's operations for host backends: organizations and members by secret key. */
import { isValidEmail, type Member, type Organization } from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import { unlockFactors } from '../../auth/factor-lockout.js';
import {
  createMember,
  memberById,
  normalizeEmail,
  type CreateMemberInput,
} from '../../tenancy/members/store.js';
import { replaceRolesFrom } from '../../tenancy/members/store-roles.js';
import { checkEmailRoleRules, checkRoleIdsForAssignment } from '../../tenancy/rbac/service.js';
import {
  SLUG_PATTERN,
  createOrganization,
  refuseBadTenants,
  type CreateOrganizationInput,
} from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { updateMember, type MemberMfaPatch } from '../members/service.js';
import { refusePublicDomains } from '../../tenancy/organizations/jit-domains.js';
import { updateOrganization, type OrganizationPatch } from '../../tenancy/organizations/update.js';
import type { Project } from '../../tenancy/projects/service.js';
import { setMemberPassword } from '../passwords/service.js';
import { acceptableNewPassword } from '../passwords/rules.js';
import { storeMemberPassword } from '../passwords/service.js';
import { hashPassword } from '../../crypto/password-hash.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import { organizationConnections, usableForSignIn } from '../sso/service.js';
import { defaultConnectionInactive, defaultConnectionOff, memberEmailTaken } from './errors.js';
import { invalidEmail, memberNotFound } from '../../tenancy/members/errors.js';
import {
  invalidSlug,
  organizationNotFound,
  organizationSlugTaken,
  sessionMaxAboveLifetime,
} from '../../tenancy/organizations/errors.js';
import { sessionLifetime } from '../../auth/sessions.js';

/** The most characters an organization's name takes (as the management API's schema says). */
const ORGANIZATION_NAME_MAX = 128;

/**
 * Creates an organization in the project. Every way in (management API, CLI, in-process admin,
 * demo seed) comes here, so each refuses the same inputs with the same `error_type`: a slug
 * outside the slug rule, a name empty or too long, a public mail domain, unknown e-mail role rules.
 */
export async function manageCreateOrganization(
  ctx: Context,
  project: Project,
  input: CreateOrganizationInput,
): Promise<Organization | Failure> {
  if (!SLUG_PATTERN.test(input.organization_slug)) {
    return invalidSlug();
  }
  const name = input.organization_name;
  if (name.length === 0 || name.length > ORGANIZATION_NAME_MAX) {
    return fail(
      'invalid_request',
      `organization_name must be 1 to ${ORGANIZATION_NAME_MAX} characters.`,
    );
  }
  const publicDomain = refusePublicDomains(input.email_allowed_domains ?? []);
  if (publicDomain) return publicDomain;
  const badTenants = refuseBadTenants(input.allowed_oauth_tenants);
  if (badTenants) return badTenants;
  const badRules = await checkEmailRoleRules(
    ctx.db,
    project.id,
    input.rbac_email_implicit_role_assignments,
  );
  if (badRules) return badRules;
  const org = await transaction(ctx.db, (trx) =>
    createOrganization(trx, project.id, project.environment, input, ctx.now()),
  );
  return org === 'slug_taken' ? organizationSlugTaken() : org;
}

/** An organization of the project, or a failure naming it missing. */
export async function manageGetOrganization(
  ctx: Context,
  project: Project,
  id: string,
): Promise<Organization | Failure> {
  return (await organizationById(ctx.db, project.id, id)) ?? organizationNotFound();
}

/** A new member's fields, and optionally a first password in clear. */
export type NewMemberInput = CreateMemberInput & { password?: string | undefined };

/**
 * Creates a member of one of the project's organizations, all or nothing: the address must pass
 * the shared e-mail rule, and a `password` the project's policy, before anything is written; the
 * member and its password are stored in one transaction. Every way in comes here.
 */
export async function manageCreateMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  input: NewMemberInput,
): Promise<{ member: Member; organization: Organization } | Failure> {
  if (!isValidEmail(input.email_address)) {
    return invalidEmail();
  }
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  const { password, ...fields } = input;
  let hash: string | undefined;
  if (password !== undefined) {
    const email = normalizeEmail(fields.email_address);
    const weak = await acceptableNewPassword(ctx, project, password, email);
    if (weak) return weak;
    hash = await hashPassword(password);
  }
  return allOrNothing(ctx.db, async (trx) => {
    const refused = await checkRoleIdsForAssignment(trx, project.id, input.roles ?? [], ctx.now());
    if (refused) return refused;
    const now = ctx.now();
    const member = await createMember(
      trx,
      project.id,
      project.environment,
      organizationId,
      fields,
      now,
    );
    if (member === 'email_taken') return memberEmailTaken();
    if (hash === undefined) return { member, organization };
    const memberId = member.member_id;
    const at = { projectId: project.id, environment: project.environment, memberId, hash };
    await storeMemberPassword(trx, at, now);
    return { member: (await memberById(trx, project.id, memberId)) ?? member, organization };
  });
}

/** A member of one of the project's organizations. */
export async function manageGetMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<{ member: Member; organization: Organization } | Failure> {
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  const member = await memberById(ctx.db, project.id, memberId);
  if (!member || member.organization_id !== organizationId) {
    return memberNotFound();
  }
  return { member, organization };
}

/**
 * Sets the password of a member of one of the project's organizations: `password` in clear, or
 * `password_hash` to import one from another system.
 */
export async function manageSetMemberPassword(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
  input: { password?: string | undefined; password_hash?: string | undefined },
): Promise<{ member: Member; organization: Organization } | Failure> {
  const found = await manageGetMember(ctx, project, organizationId, memberId);
  if ('failure' in found) return found;
  if (found.member.status === 'deleted') return memberNotFound();
  const member = await setMemberPassword(ctx, project, found.member, {
    password: input.password,
    hash: input.password_hash,
  });
  return 'failure' in member ? member : { member, organization: found.organization };
}

/**
 * The SSO settings of a patch must name this organization's own connections, and the default
 * must be an active one that is on.
 */
async function checkSsoSettings(
  db: Db,
  projectId: string,
  organizationId: string,
  patch: OrganizationPatch,
): Promise<Failure | null> {
  const named = [
    ...(patch.sso_jit_provisioning_allowed_connections ?? []),
    ...(patch.sso_default_connection_id ? [patch.sso_default_connection_id] : []),
  ];
  if (named.length === 0) return null;
  const own = await organizationConnections(db, projectId, organizationId);
  const missing = named.find((id) => !own.some((c) => c.id === id));
  if (missing) {
    return fail('connection_not_found', `This organization has no SSO connection ${missing}.`);
  }
  const chosen = own.find((c) => c.id === patch.sso_default_connection_id);
  if (chosen && chosen.status !== 'active') {
    return defaultConnectionInactive();
  }
  if (chosen && !usableForSignIn(chosen)) return defaultConnectionOff();
  return null;
}

/**
 * Changes an organization's settings (name, logo, JIT domains, auth and MFA policies, session
 * limit), all or none.
 */
export async function manageUpdateOrganization(
  ctx: Context,
  project: Project,
  organizationId: string,
  patch: OrganizationPatch,
): Promise<Organization | Failure> {
  if (patch.organization_slug !== undefined && !SLUG_PATTERN.test(patch.organization_slug)) {
    return invalidSlug();
  }
  const publicDomain = refusePublicDomains(patch.email_allowed_domains ?? []);
  if (publicDomain) return publicDomain;
  const badTenants = refuseBadTenants(patch.allowed_oauth_tenants);
  if (badTenants) return badTenants;
  const badRules = await checkEmailRoleRules(
    ctx.db,
    project.id,
    patch.rbac_email_implicit_role_assignments,
  );
  if (badRules) return badRules;
  const lifetime = sessionLifetime(ctx, project);
  if ((patch.session_max_duration_minutes ?? 0) > lifetime) {
    return sessionMaxAboveLifetime(lifetime);
  }
  return allOrNothing(ctx.db, async (trx) => {
    const refused = await checkSsoSettings(trx, project.id, organizationId, patch);
    if (refused) return refused;
    const org = await updateOrganization(trx, project.id, organizationId, patch, ctx.now());
    if (org === 'slug_taken') return organizationSlugTaken();
    return org ?? organizationNotFound();
  });
}

/**
 * Unlocks a member's second factors locked by wrong codes in a row (TOTP with its recovery
 * codes, and SMS), for an administrator who has made sure the member is who they say.
 */
export async function manageUnlockMfa(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<{ member: Member; organization: Organization } | Failure> {
  const found = await manageGetMember(ctx, project, organizationId, memberId);
  if ('failure' in found) return found;
  await unlockFactors(ctx.db, memberId);
  return found;
}

/**
 * Changes a member's name, MFA settings or directly assigned roles (`roles` replaces them;
 * `member` always stays, and roles from e-mail rules and SSO groups are untouched).
 */
export async function manageUpdateMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
  patch: MemberMfaPatch & { roles?: string[] | undefined },
): Promise<{ member: Member; organization: Organization } | Failure> {
  const found = await manageGetMember(ctx, project, organizationId, memberId);
  if ('failure' in found) return found;
  const { roles, ...rest } = patch;
  return allOrNothing(ctx.db, async (trx) => {
    if (roles !== undefined) {
      const refused = await checkRoleIdsForAssignment(trx, project.id, roles, ctx.now());
      if (refused) return refused;
      await replaceRolesFrom(trx, memberId, 'direct_assignment', roles);
    }
    const member = await updateMember(trx, project.id, memberId, rest, ctx.now());
    return 'failure' in member ? member : { member, organization: found.organization };
  });
}
