/**
 * `passwords.email.requireReset` of the management API (§7.2): the project requires a member's
 * password, or every password of an address, be reset. Such a password, even when right, answers
 * 400 `reset_password` at sign-in until a new one replaces it.
 */
import { isValidEmail, type Member, type Organization } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import { invalidEmail } from '../../tenancy/members/errors.js';
import {
  memberByEmail,
  memberById,
  membersByEmail,
  normalizeEmail,
} from '../../tenancy/members/store.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { requirePasswordReset } from './store.js';

/** Input of {@link requireReset}: the address, and optionally the one member it is about. */
export interface RequireResetInput {
  email_address: string;
  organization_id?: string | undefined;
  member_id?: string | undefined;
}

/** What {@link requireReset} answers: the member when the call named one. */
export interface RequireResetResult {
  member_id?: string;
  member?: Member;
  organization?: Organization;
}

const notAMember = (email: string): Failure =>
  fail('member_not_found', `No member with the address ${email} was found.`);

/** The one member a call names by `member_id` or by organization, checked against the address. */
async function namedMember(
  ctx: Context,
  project: Project,
  email: string,
  input: RequireResetInput,
): Promise<{ member: Member; organization: Organization } | Failure> {
  let member: Member | null;
  if (input.member_id !== undefined) {
    member = await memberById(ctx.db, project.id, input.member_id);
    // A member of another organization than the one named is not found, as an unknown id.
    if (input.organization_id !== undefined && member?.organization_id !== input.organization_id)
      member = null;
  } else {
    const org = await organizationById(ctx.db, project.id, input.organization_id ?? '');
    if (!org) return organizationNotFound();
    member = await memberByEmail(ctx.db, org.organization_id, email);
  }
  if (!member || member.status === 'deleted' || member.email_address !== email) {
    return notAMember(email);
  }
  const organization = await organizationById(ctx.db, project.id, member.organization_id);
  if (!organization) return organizationNotFound();
  return { member, organization };
}

/**
 * Marks the password of the member named (by `member_id`, or by `organization_id` and the
 * address) as needing a reset; with the address alone, the passwords of every membership of the
 * address in the project, as the provider's cross-organization passwords are one per address. A
 * member without a password has nothing to mark and is answered all the same. Sessions are left
 * as they are (end them with `sessions.revoke` when the password may have leaked).
 *
 * @example
 * const marked = unwrap(await requireReset(ctx, project, { email_address: 'ada@acme.test' }));
 */
export async function requireReset(
  ctx: Context,
  project: Project,
  input: RequireResetInput,
): Promise<RequireResetResult | Failure> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  const now = ctx.now();
  if (input.member_id === undefined && input.organization_id === undefined) {
    const members = await membersByEmail(ctx.db, project.id, email);
    if (members.length === 0) return notAMember(email);
    // Not allOrNothing: nothing here returns a failure; one statement marks them all.
    await transaction(ctx.db, (trx) =>
      requirePasswordReset(
        trx,
        project.id,
        members.map((m) => m.member_id),
        now,
      ),
    );
    return {};
  }
  const named = await namedMember(ctx, project, email, input);
  if ('failure' in named) return named;
  await requirePasswordReset(ctx.db, project.id, [named.member.member_id], now);
  return {
    member_id: named.member.member_id,
    member: named.member,
    organization: named.organization,
  };
}
