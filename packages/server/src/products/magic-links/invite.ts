/**
 * Invitations (§7.1, `magic_links/email/invite`): a member with status `invited` and an e-mailed
 * link that makes them active and signs them in, once. The host invites through the management
 * API, the CLI or the admin interface; a member through the SDK, with the roles they hold.
 */
import {
  INVITE_LINK_DEFAULT_MINUTES,
  isValidEmail,
  type Member,
  type Organization,
} from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../../context.js';
import { inviteEmail } from '../../delivery/templates.js';
import { issueLinkToken, voidLinkTokens } from '../../auth/link-tokens.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import type { TokensTable } from '../../store/schema.js';
import {
  createMember,
  memberByEmail,
  memberById,
  memberLocale,
  normalizeEmail,
  rememberMemberLocale,
  touchInvitedMember,
  updateMemberRow,
} from '../../tenancy/members/store.js';
import { replaceRolesFrom } from '../../tenancy/members/store-roles.js';
import { invalidEmail, memberNotFound, memberRemoved } from '../../tenancy/members/errors.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl, withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { refuseRolesNotHeld, type Grantor } from '../../tenancy/rbac/grants.js';
import { checkRoleIdsForAssignment } from '../../tenancy/rbac/service.js';
import { invitationNotFound, magicLinkNotFound } from './errors.js';

/** The most characters each metadata object of an invitation takes, as JSON. */
const METADATA_MAX_CHARS = 4096;

/** What an invitation says (the management API's fields; the SDK sends a subset). */
export interface InviteInput {
  email_address: string;
  invite_redirect_url?: string | undefined;
  name?: string | undefined;
  roles?: string[] | undefined;
  locale?: string | undefined;
  invite_expiration_minutes?: number | undefined;
  invited_by_member_id?: string | undefined;
  trusted_metadata?: Record<string, unknown> | undefined;
  untrusted_metadata?: Record<string, unknown> | undefined;
  /**
   * Set when resending the invitation of this member id: refused (404 `invitation_not_found`)
   * unless that member is still invited when the invitation is written, so a resend never
   * brings back an invitation revoked or accepted meanwhile.
   */
  resend_of?: string | undefined;
}

/** The invited member and its organization, as both invite endpoints answer. */
export interface Invited {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** What an invitation token records beside its address: the member it was issued to. */
interface InviteDetails {
  invite_member_id: string;
  invited_by_member_id: string | null;
}

/** The address belongs to an active member: there is no one left to invite. */
export const memberAlreadyActive = (): Failure =>
  fail(
    'member_already_active',
    'This address already belongs to an active member of the organization; they can log in without an invitation.',
  );

/** The invitation's member was activated since, or removed and invited again. */
const invitationClosed = (): Failure =>
  fail('magic_link_not_found', 'This invitation is no longer open: it was already accepted.');

/**
 * The invite URL: one on the project's signup allow-list, else on its login one (the invitee
 * lands where members finish joining, §14 "Redirect choice"); omitted, the first signup URL,
 * else the first login URL.
 */
function inviteRedirect(project: Project, given: string | undefined): string | Failure {
  const signup = resolveRedirectUrl(project, 'signup', given);
  if (signup.ok) return signup.url;
  const login = resolveRedirectUrl(project, 'login', given);
  if (login.ok) return login.url;
  return fail(
    'invalid_redirect_url',
    given
      ? `${given} is not on the project's signup or login redirect URL allow-list.`
      : 'No invite_redirect_url was given and the project has no signup or login redirect URL.',
  );
}

/** Metadata that fits, as JSON; a failure naming the field otherwise. */
function metadataJson(
  field: 'trusted_metadata' | 'untrusted_metadata',
  value: Record<string, unknown> | undefined,
): string | undefined | Failure {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  return json.length > METADATA_MAX_CHARS
    ? fail('invalid_request', `${field} may take at most ${METADATA_MAX_CHARS} characters as JSON.`)
    : json;
}

/**
 * Makes the member of an invitation: a new one with status `invited`, or the existing one
 * invited again (a pending or invited member; a removed one comes back invited, and the links it
 * was sent before it was removed are voided). An active member is refused.
 */
async function invitedMember(
  trx: Db,
  project: Project,
  organizationId: string,
  email: string,
  input: InviteInput,
  metadata: { trusted?: string | undefined; untrusted?: string | undefined },
  now: number,
): Promise<Member | Failure> {
  const existing = await memberByEmail(trx, organizationId, email);
  if (existing?.status === 'active') return memberAlreadyActive();
  if (input.resend_of !== undefined) {
    // Conditional on the status, so a revocation committed since the caller's check wins.
    const still =
      existing?.member_id === input.resend_of &&
      (await touchInvitedMember(trx, input.resend_of, now));
    if (!still) return invitationNotFound();
  }
  let memberId: string;
  if (existing) {
    memberId = existing.member_id;
    if (existing.status === 'deleted') {
      await voidLinkTokens(
        trx,
        { projectId: project.id, kind: 'magic_link', email, organizationId },
        now,
      );
    }
    await updateMemberRow(trx, memberId, {
      status: 'invited',
      updated_at: isoAt(now),
      ...(input.name !== undefined ? { name: input.name } : {}),
    });
    if (input.roles !== undefined) {
      await replaceRolesFrom(trx, memberId, 'direct_assignment', input.roles);
    }
  } else {
    const created = await createMember(
      trx,
      project.id,
      project.environment,
      organizationId,
      { email_address: email, name: input.name ?? '', status: 'invited', roles: input.roles ?? [] },
      now,
    );
    // A concurrent invitation or sign-up made the member first: the caller may try again.
    if (created === 'email_taken') {
      return fail('invalid_request', 'The member was created by another request; try again.');
    }
    memberId = created.member_id;
  }
  const set = {
    ...(metadata.trusted !== undefined ? { trusted_metadata: metadata.trusted } : {}),
    ...(metadata.untrusted !== undefined ? { untrusted_metadata: metadata.untrusted } : {}),
  };
  if (Object.keys(set).length > 0) await updateMemberRow(trx, memberId, set);
  return (await memberById(trx, project.id, memberId)) ?? memberNotFound();
}

/**
 * Invites an address into an organization of the project and e-mails the link. `grantor` is
 * the host (any role of the policy) or the inviting member (only roles they hold). The e-mail is
 * in `locale`, else the language the member last signed in with, else English.
 *
 * @example
 * const invited = await inviteMember(ctx, project, org.organization_id, { email_address: 'ada@acme.test' }, 'host');
 */
export async function inviteMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  input: InviteInput,
  grantor: Grantor,
): Promise<Invited | Failure> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  const organization = await organizationById(ctx.db, project.id, organizationId);
  if (!organization) return organizationNotFound();
  const redirect = inviteRedirect(project, input.invite_redirect_url);
  if (typeof redirect !== 'string') return redirect;
  const roles = input.roles ?? [];
  const notHeld = refuseRolesNotHeld(grantor, roles);
  if (notHeld) return notHeld;
  const trusted = metadataJson('trusted_metadata', input.trusted_metadata);
  if (typeof trusted === 'object') return trusted;
  const untrusted = metadataJson('untrusted_metadata', input.untrusted_metadata);
  if (typeof untrusted === 'object') return untrusted;
  if (input.invited_by_member_id !== undefined) {
    const inviter = await memberById(ctx.db, project.id, input.invited_by_member_id);
    if (!inviter || inviter.organization_id !== organizationId || inviter.status === 'deleted') {
      return fail('member_not_found', 'invited_by_member_id names no member of this organization.');
    }
  }
  const lifetime = input.invite_expiration_minutes ?? INVITE_LINK_DEFAULT_MINUTES;

  const issued = await allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const refused = await checkRoleIdsForAssignment(trx, project.id, roles, now);
    if (refused) return refused;
    const member = await invitedMember(
      trx,
      project,
      organizationId,
      email,
      input,
      { trusted, untrusted },
      now,
    );
    if ('failure' in member) return member;
    const details: InviteDetails = {
      invite_member_id: member.member_id,
      invited_by_member_id: input.invited_by_member_id ?? null,
    };
    const token = await issueLinkToken(
      trx,
      {
        projectId: project.id,
        kind: 'magic_link',
        email,
        organizationId,
        pkceChallenge: null,
        lifetimeMinutes: lifetime,
        details: JSON.stringify(details),
      },
      now,
    );
    const locale = input.locale ?? (await memberLocale(trx, member.member_id));
    if (input.locale) await rememberMemberLocale(trx, member.member_id, input.locale);
    return { member, token, locale };
  });
  if ('failure' in issued) return issued;

  const { member, token, locale } = issued;
  const link = withToken(redirect, 'multi_tenant_magic_links', token, locale);
  await ctx.mailer.send(email, inviteEmail(link, organization.organization_name, lifetime, locale));
  return { member_id: member.member_id, member, organization };
}

/**
 * Whether a redeemed magic-link token may sign its member in: an invitation's link only for the
 * member it was issued to, while that member is still invited. A member removed since gets 404
 * `member_not_found`, so deleting an invited member revokes their invitation; one who accepted
 * already (by another link or by discovery) gets 404 `magic_link_not_found`. Other links: null.
 *
 * @example
 * const closed = inviteRefusal(token, existing);
 * if (closed) return closed;
 */
export function inviteRefusal(token: TokensTable, member: Member | null): Failure | null {
  if (!token.details) return null;
  const details = JSON.parse(token.details) as Partial<InviteDetails>;
  if (details.invite_member_id === undefined) return null;
  if (!member || member.member_id !== details.invite_member_id) return magicLinkNotFound();
  if (member.status === 'deleted') return memberRemoved();
  return member.status === 'invited' ? null : invitationClosed();
}
