/** The management API's `magicLinks.email.loginOrSignup`: the browser API's send, naming whom it went to. */
import type { Member, Organization } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { createMember, memberByEmail, normalizeEmail } from '../../tenancy/members/store.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import type { Project } from '../../tenancy/projects/service.js';
import type { Failure } from '../../result.js';
import { sendLoginOrSignup, type LoginOrSignupInput } from './service.js';

/** Whom a backend's login-or-signup link went to. */
export interface BackendLoginOrSignup {
  member_id: string;
  member_created: boolean;
  member: Member;
  organization: Organization;
}

/**
 * Sends the link as the browser API does (same checks, redirect allow-list and refusals), then
 * answers with the member it went to. Someone who may join by e-mail domain becomes a pending
 * member, as with the hosted provider; redeeming the link activates them.
 *
 * @example
 * const sent = unwrap(await backendLoginOrSignup(ctx, project, body));
 */
export async function backendLoginOrSignup(
  ctx: Context,
  project: Project,
  input: LoginOrSignupInput,
): Promise<BackendLoginOrSignup | Failure> {
  const refused = await sendLoginOrSignup(ctx, project, input);
  if (refused) return refused;
  const organization = await organizationById(ctx.db, project.id, input.organization_id);
  if (!organization) return organizationNotFound();
  const email = normalizeEmail(input.email_address);
  const existing = await memberByEmail(ctx.db, organization.organization_id, email);
  if (existing) {
    return { member_id: existing.member_id, member_created: false, member: existing, organization };
  }
  const created = await createMember(
    ctx.db,
    project.id,
    project.environment,
    organization.organization_id,
    { email_address: email, status: 'pending' },
    ctx.now(),
  );
  if (created === 'email_taken') {
    // A concurrent call created the member first: answer with that one.
    const winner = await memberByEmail(ctx.db, organization.organization_id, email);
    if (!winner) return organizationNotFound();
    return { member_id: winner.member_id, member_created: false, member: winner, organization };
  }
  return { member_id: created.member_id, member_created: true, member: created, organization };
}
