/**
 * Migrating a password hash from another system (management API `passwords/migrate`): the member
 * is created, or the existing one updated, with the old system's hash stored as it is; their next
 * sign-in checks it with its own algorithm and replaces it with argon2id (`service.ts`).
 */
import type { BodyOf, ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { isValidEmail, type Member, type Organization } from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import {
  activateMember,
  createMember,
  memberByEmail,
  memberById,
  normalizeEmail,
  updateMemberRow,
} from '../../tenancy/members/store.js';
import { replaceRolesFrom } from '../../tenancy/members/store-roles.js';
import { invalidEmail } from '../../tenancy/members/errors.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { checkRoleIdsForAssignment } from '../../tenancy/rbac/service.js';
import { isoAt } from '../../context.js';
import { updateMember } from '../members/service.js';
import { savePassword } from './store.js';
import { forgetGuesses } from './throttle.js';
import { storedHashOf } from './migrate-hash.js';

type MigrateInput = BodyOf<typeof ENDPOINTS.migratePassword>;

/** What a migration answers. */
export interface MigrateResult {
  member_id: string;
  member_created: boolean;
  member: Member;
  organization: Organization;
}

/** The most characters each metadata object takes, as JSON (as for member updates). */
const METADATA_MAX_CHARS = 4096;

/**
 * Stores a member's password hash from another system in one of the project's organizations,
 * all or nothing: the member is created (active, address verified) when the organization has no
 * member with the address, and otherwise updated, their address marked verified and their
 * password replaced, which ends their sessions as any password change does. `name`, metadata,
 * `roles` and the MFA phone number are applied when given. The hash is checked against its type
 * and the bounds of `crypto/hash-bounds.ts` before anything is written.
 *
 * @example
 * const result = await migratePassword(ctx, project, { organization_id, email_address: 'ada@acme.test', hash: '$2b$10$…', hash_type: 'bcrypt' });
 */
export async function migratePassword(
  ctx: Context,
  project: Project,
  input: MigrateInput,
): Promise<MigrateResult | Failure> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  const hash = storedHashOf(input);
  if (typeof hash !== 'string') return hash;
  const metadata = metadataColumns(input);
  if ('failure' in metadata) return metadata;
  if (input.external_id !== undefined) {
    return fail('invalid_request', 'external_id is not supported: members have no external id.');
  }
  const organization = await organizationById(ctx.db, project.id, input.organization_id);
  if (!organization) return organizationNotFound();
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    if (input.roles) {
      const refused = await checkRoleIdsForAssignment(trx, project.id, input.roles, now);
      if (refused) return refused;
    }
    const found = await memberOf(ctx, trx, project, organization, {
      ...input,
      email_address: email,
    });
    if ('failure' in found) return found;
    const memberId = found.member.member_id;
    if (input.roles && !found.created) {
      await replaceRolesFrom(trx, memberId, 'direct_assignment', input.roles);
    }
    const set = { ...metadata, ...(found.created ? {} : { name: input.name }) };
    if (Object.values(set).some((value) => value !== undefined)) {
      await updateMemberRow(trx, memberId, { ...set, updated_at: isoAt(now) });
    }
    if (input.mfa_phone_number !== undefined || input.set_phone_number_verified !== undefined) {
      const phone = { mfa_phone_number: input.mfa_phone_number };
      const verified = { mfa_phone_number_verified: input.set_phone_number_verified };
      const updated = await updateMember(trx, project.id, memberId, { ...phone, ...verified }, now);
      if ('failure' in updated) return updated;
    }
    const at = { projectId: project.id, environment: project.environment, memberId, hash };
    await savePassword(trx, at, now);
    await forgetGuesses(ctx, trx, memberId);
    const member = (await memberById(trx, project.id, memberId)) ?? found.member;
    return { member_id: memberId, member_created: found.created, member, organization };
  });
}

/** The member the migration is for: found by address (and made active), or created. */
async function memberOf(
  ctx: Context,
  trx: Db,
  project: Project,
  organization: Organization,
  input: MigrateInput,
): Promise<{ member: Member; created: boolean } | Failure> {
  const now = ctx.now();
  const existing = await memberByEmail(trx, organization.organization_id, input.email_address);
  // A migrated password is the old system's word that the address is the member's, so an
  // invited, pending or deleted member becomes active with a verified address.
  if (existing) return { member: await activateMember(trx, existing, now), created: false };
  const created = await createMember(
    trx,
    project.id,
    project.environment,
    organization.organization_id,
    {
      email_address: input.email_address,
      name: input.name,
      roles: input.roles,
      emailVerified: true,
    },
    now,
  );
  if (created === 'email_taken') {
    return fail('invalid_request', 'Another call added this member at the same time; try again.');
  }
  return { member: created, created: true };
}

/** The metadata columns a migration sets, or a failure when one is too large. */
function metadataColumns(
  input: MigrateInput,
): { trusted_metadata?: string; untrusted_metadata?: string } | Failure {
  const columns: { trusted_metadata?: string; untrusted_metadata?: string } = {};
  for (const field of ['trusted_metadata', 'untrusted_metadata'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const json = JSON.stringify(value);
    if (json.length > METADATA_MAX_CHARS) {
      return fail(
        'invalid_request',
        `${field} may take at most ${METADATA_MAX_CHARS} characters as JSON.`,
      );
    }
    columns[field] = json;
  }
  return columns;
}
