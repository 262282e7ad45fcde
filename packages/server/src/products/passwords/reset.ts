/** Password reset by e-mail (§7.2, §8, §10): the reset link, and the new password set with it. */
import {
  isValidEmail,
  RESET_LINK_DEFAULT_MINUTES,
  toAnonymousMember,
  toSlugSubset,
  type AnonymousMember,
  type OrganizationSlugSubset,
} from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { hashPassword } from '../../crypto/password-hash.js';
import { passwordResetEmail } from '../../delivery/templates.js';
import {
  issueLinkToken,
  peekLinkToken,
  pkceMismatch,
  redeemLinkToken,
  type RedeemFailure,
} from '../../auth/link-tokens.js';
import {
  activateMember,
  memberByEmail,
  memberEmailId,
  normalizeEmail,
} from '../../tenancy/members/store.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl, withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import type { AuthOutcome } from '../../auth/complete.js';
import { completePrimary } from '../../auth/primary.js';
import type { ClientInfo } from '../../auth/client-info.js';
import { savePassword } from './store.js';
import { passwordResetFactor } from './factors.js';
import { acceptableNewPassword } from './rules.js';
import { forgetGuesses } from './throttle.js';
import { invalidEmail, memberRemoved } from '../../tenancy/members/errors.js';
import { organizationGone, organizationNotFound } from '../../tenancy/organizations/errors.js';
import { passwordsNotAllowed, pkceRequired } from './errors.js';

/** Input of {@link startPasswordReset}. */
export interface ResetStartInput {
  organization_id: string;
  email_address: string;
  login_redirect_url?: string | undefined;
  reset_password_redirect_url?: string | undefined;
  reset_password_expiration_minutes?: number | undefined;
  code_challenge?: string | undefined;
  /** The language of the e-mail (docs/protocol.md §7); English when the server has no copy. */
  locale?: string | undefined;
}

/**
 * E-mails a member a single-use link to the reset page (`stytch_token_type=multi_tenant_passwords`).
 * The member need not have a password yet: setting one by reset link also proves the address.
 * The caller is anonymous, so it gets the anonymous member subset and the slug subset (§7.2).
 */
export async function startPasswordReset(
  ctx: Context,
  project: Project,
  input: ResetStartInput,
): Promise<
  { member_id: string; member: AnonymousMember; organization: OrganizationSlugSubset } | Failure
> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  if (project.pkceRequired.password_resets && !input.code_challenge) {
    return pkceRequired();
  }
  const organization = await organizationById(ctx.db, project.id, input.organization_id);
  if (!organization) return organizationNotFound();
  if (!allowsAuthMethod(organization, 'password')) {
    return passwordsNotAllowed();
  }
  const target = resolveRedirectUrl(project, 'reset_password', input.reset_password_redirect_url);
  if (!target.ok) return fail('invalid_redirect_url', target.message);
  // The published widget's resend path puts a template id here: only absolute URLs are checked.
  if (input.login_redirect_url && URL.canParse(input.login_redirect_url)) {
    const login = resolveRedirectUrl(project, 'login', input.login_redirect_url);
    if (!login.ok) return fail('invalid_redirect_url', login.message);
  }
  const member = await memberByEmail(ctx.db, organization.organization_id, email);
  if (!member || member.status === 'deleted') {
    return fail(
      'member_not_found',
      `${email} is not a member of ${organization.organization_name}.`,
    );
  }

  const now = ctx.now();
  const lifetime = input.reset_password_expiration_minutes ?? RESET_LINK_DEFAULT_MINUTES;
  const token = await issueLinkToken(
    ctx.db,
    {
      projectId: project.id,
      kind: 'password_reset',
      email,
      organizationId: organization.organization_id,
      pkceChallenge: input.code_challenge ?? null,
      lifetimeMinutes: lifetime,
    },
    now,
  );
  const link = withToken(target.url, 'multi_tenant_passwords', token, input.locale);
  await ctx.mailer.send(
    email,
    passwordResetEmail(link, organization.organization_name, lifetime, input.locale),
  );
  return {
    member_id: member.member_id,
    member: toAnonymousMember(member),
    organization: toSlugSubset(organization),
  };
}

/** Input of {@link resetPasswordByEmail}. */
export interface ResetByEmailInput {
  password_reset_token: string;
  password: string;
  session_duration_minutes: number;
  code_verifier?: string | undefined;
  intermediate_session_token?: string | undefined;
  locale?: string | undefined;
}

const TOKEN_NOT_FOUND = 'The password reset link is unknown, expired or already used.';

function tokenFailure(reason: RedeemFailure): Failure {
  return reason === 'pkce_mismatch'
    ? pkceMismatch()
    : fail('password_reset_token_not_found', TOKEN_NOT_FOUND);
}

/** Input of {@link checkResetToken}. */
export interface ResetCheckInput {
  password_reset_token: string;
  code_verifier?: string | undefined;
}

/** A live reset link of the project, its PKCE binding checked, without spending it. */
function peekResetToken(
  ctx: Context,
  project: Project,
  input: { password_reset_token: string; code_verifier?: string | undefined },
) {
  return peekLinkToken(
    ctx.db,
    project.id,
    'password_reset',
    input.password_reset_token,
    input.code_verifier,
    ctx.now(),
  );
}

/**
 * Whether a reset link can still set a password, without spending it: the reset page asks when
 * it opens, so that a used or expired link says so before a password is typed.
 *
 * @example
 * const failure = await checkResetToken(ctx, project, { password_reset_token: token });
 * if (failure) return failure; // 404 password_reset_token_not_found
 */
export async function checkResetToken(
  ctx: Context,
  project: Project,
  input: ResetCheckInput,
): Promise<Failure | null> {
  const peeked = await peekResetToken(ctx, project, input);
  return typeof peeked === 'string' ? tokenFailure(peeked) : null;
}

/**
 * Sets a new password with a reset link and signs the member in: result AM with a new session,
 * since the change ends every session and IST of the member, including any sent with the call.
 * The link is spent only once the password is accepted: a weak password or a PKCE mismatch
 * leaves it usable, and a refusal after it rolls everything back.
 */
export async function resetPasswordByEmail(
  ctx: Context,
  project: Project,
  input: ResetByEmailInput,
  client: ClientInfo,
): Promise<AuthOutcome | Failure> {
  const peeked = await peekResetToken(ctx, project, input);
  if (typeof peeked === 'string') return tokenFailure(peeked);
  const weak = await acceptableNewPassword(ctx, project, input.password, peeked.email);
  if (weak) return weak;
  const hash = await hashPassword(input.password);

  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    // Single-use: spent in the same transaction that sets the password.
    const token = await redeemLinkToken(
      trx,
      project.id,
      'password_reset',
      input.password_reset_token,
      input.code_verifier,
      now,
    );
    if (typeof token === 'string') return tokenFailure(token);
    const organization = token.organization_id
      ? await organizationById(trx, project.id, token.organization_id)
      : null;
    if (!organization) {
      return organizationGone();
    }
    const existing = await memberByEmail(trx, organization.organization_id, token.email);
    if (!existing || existing.status === 'deleted') {
      return memberRemoved();
    }
    // The link proves the address: an invited or pending member becomes active.
    const activated = await activateMember(trx, existing, now);
    const passwordId = await savePassword(
      trx,
      {
        projectId: project.id,
        environment: project.environment,
        memberId: activated.member_id,
        hash,
      },
      now,
    );
    await forgetGuesses(ctx, trx, activated.member_id);
    const member = { ...activated, member_password_id: passwordId };
    const emailId = await memberEmailId(trx, member.member_id);
    return completePrimary(
      ctx,
      trx,
      {
        project,
        organization,
        member,
        factors: [passwordResetFactor(member, emailId, now)],
        durationMinutes: input.session_duration_minutes,
        intermediateSessionToken: input.intermediate_session_token,
        locale: input.locale,
        client,
      },
      now,
    );
  });
}
