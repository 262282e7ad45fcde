/** E-mail magic links (§7.1): login-or-signup and discovery sends, and redeeming a login link. */
import {
  isValidEmail,
  DISCOVERY_LINK_MINUTES,
  LOGIN_LINK_MINUTES,
  SIGNUP_LINK_MINUTES,
  type AuthenticationFactor,
} from '@gatehouse/protocol';
import { isoAt, type Context } from '../../context.js';
import { magicLinkEmail } from '../../delivery/templates.js';
import {
  activateMember,
  createMember,
  memberByEmail,
  memberEmailId,
  normalizeEmail,
} from '../../tenancy/members/store.js';
import { unlockFactors } from '../../auth/factor-lockout.js';
import { allowsAuthMethod, jitDecision } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl, withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import type { AuthOutcome, PresentedSession } from '../../auth/complete.js';
import { completePrimary } from '../../auth/primary.js';
import type { ClientInfo } from '../../auth/client-info.js';
import { issueLinkToken, redeemForSignIn } from '../../auth/link-tokens.js';
import { inviteRefusal } from './invite.js';
import {
  magicLinkNotFound,
  magicLinkUnusable,
  magicLinksNotAllowed,
  pkceRequired,
} from './errors.js';
import { invalidEmail, memberRemoved } from '../../tenancy/members/errors.js';
import { organizationGone, organizationNotFound } from '../../tenancy/organizations/errors.js';

/** The factor a redeemed e-mail link proves. */
export function emailFactor(email: string, emailId: string, now: number): AuthenticationFactor {
  return {
    type: 'magic_link',
    delivery_method: 'email',
    last_authenticated_at: isoAt(now),
    sequence_order: 'PRIMARY',
    email_factor: { email_id: emailId, email_address: email },
  };
}

/** The checks every send shares: address format, PKCE requirement. */
function checkSend(project: Project, email: string, challenge: string | undefined): Failure | null {
  if (!isValidEmail(email)) return invalidEmail();
  if (project.pkceRequired.email_magic_links && !challenge) {
    return pkceRequired();
  }
  return null;
}

/** Input of {@link sendLoginOrSignup}. */
export interface LoginOrSignupInput {
  email_address: string;
  organization_id: string;
  login_redirect_url?: string | undefined;
  signup_redirect_url?: string | undefined;
  pkce_code_challenge?: string | undefined;
  /** The language of the e-mail (docs/protocol.md §7); English when the server has no copy. */
  locale?: string | undefined;
}

/**
 * Sends a login link to an active member, or a signup link to an invited or pending member or
 * to someone the organization lets join by e-mail domain. Both redirect URLs are checked first so
 * that a known and an unknown address get the same answer.
 */
export async function sendLoginOrSignup(
  ctx: Context,
  project: Project,
  input: LoginOrSignupInput,
): Promise<Failure | null> {
  const email = normalizeEmail(input.email_address);
  const invalid = checkSend(project, email, input.pkce_code_challenge);
  if (invalid) return invalid;
  const org = await organizationById(ctx.db, project.id, input.organization_id);
  if (!org) return organizationNotFound();
  if (!allowsAuthMethod(org, 'magic_link')) {
    return magicLinksNotAllowed();
  }
  const login = resolveRedirectUrl(project, 'login', input.login_redirect_url);
  if (!login.ok) return fail('invalid_redirect_url', login.message);
  const signup = resolveRedirectUrl(project, 'signup', input.signup_redirect_url);
  if (!signup.ok) return fail('invalid_redirect_url', signup.message);

  const member = await memberByEmail(ctx.db, org.organization_id, email);
  let kind: 'login' | 'signup';
  if (member && member.status === 'active') kind = 'login';
  else if (member && (member.status === 'invited' || member.status === 'pending')) kind = 'signup';
  else {
    const decision = jitDecision(org, email);
    if (decision !== 'allowed') {
      return fail(decision, `${email} may not join ${org.organization_name} by e-mail.`);
    }
    kind = 'signup';
  }

  const now = ctx.now();
  const lifetime = kind === 'login' ? LOGIN_LINK_MINUTES : SIGNUP_LINK_MINUTES;
  const token = await issueLinkToken(
    ctx.db,
    {
      projectId: project.id,
      kind: 'magic_link',
      email,
      organizationId: org.organization_id,
      pkceChallenge: input.pkce_code_challenge ?? null,
      lifetimeMinutes: lifetime,
    },
    now,
  );
  const link = withToken(
    kind === 'login' ? login.url : signup.url,
    'multi_tenant_magic_links',
    token,
    input.locale,
  );
  await ctx.mailer.send(
    email,
    magicLinkEmail(kind, link, org.organization_name, lifetime, input.locale),
  );
  return null;
}

/** Input of {@link sendDiscovery}. */
export interface DiscoverySendInput {
  email_address: string;
  discovery_redirect_url?: string | undefined;
  pkce_code_challenge?: string | undefined;
  locale?: string | undefined;
}

/**
 * Sends a discovery link. Every valid request sends the same e-mail whether or not the address
 * belongs to anyone, so the answer and its timing reveal nothing.
 */
export async function sendDiscovery(
  ctx: Context,
  project: Project,
  input: DiscoverySendInput,
): Promise<Failure | null> {
  const email = normalizeEmail(input.email_address);
  const invalid = checkSend(project, email, input.pkce_code_challenge);
  if (invalid) return invalid;
  const target = resolveRedirectUrl(project, 'discovery', input.discovery_redirect_url);
  if (!target.ok) return fail('invalid_redirect_url', target.message);
  const now = ctx.now();
  const token = await issueLinkToken(
    ctx.db,
    {
      projectId: project.id,
      kind: 'discovery',
      email,
      organizationId: null,
      pkceChallenge: input.pkce_code_challenge ?? null,
      lifetimeMinutes: DISCOVERY_LINK_MINUTES,
    },
    now,
  );
  const link = withToken(target.url, 'discovery', token, input.locale);
  await ctx.mailer.send(
    email,
    magicLinkEmail('discovery', link, project.name, DISCOVERY_LINK_MINUTES, input.locale),
  );
  return null;
}

/** Input of {@link authenticateMagicLink}. */
export interface MagicLinkAuthenticateInput {
  magic_links_token: string;
  session_duration_minutes: number;
  pkce_code_verifier?: string | undefined;
  intermediate_session_token?: string | undefined;
  locale?: string | undefined;
}

/**
 * Redeems a login, signup or invitation link: activates an invited or pending member, creates a member who
 * joins by e-mail domain, then grants result AM. One transaction: the link is single-use, and a
 * refusal after redeeming it (an IST spent by a concurrent call) leaves it unspent. Unlocks the
 * member's second factors (factor-lockout).
 */
export async function authenticateMagicLink(
  ctx: Context,
  project: Project,
  input: MagicLinkAuthenticateInput,
  presented: PresentedSession | null,
  client: ClientInfo,
): Promise<(AuthOutcome & { method_id: string }) | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const token = await redeemForSignIn(
      trx,
      project.id,
      'magic_link',
      input.magic_links_token,
      input.pkce_code_verifier,
      now,
      magicLinkNotFound,
    );
    if (isFailure(token)) return token;
    if (!token.organization_id) return magicLinkNotFound();
    const org = await organizationById(trx, project.id, token.organization_id);
    if (!org) {
      return organizationGone();
    }
    const existing = await memberByEmail(trx, org.organization_id, token.email);
    // An invitation's link signs in only its own member, and only while they are invited.
    const closed = inviteRefusal(token, existing);
    if (closed) return closed;
    if (existing?.status === 'deleted') {
      return memberRemoved();
    }
    let member = existing
      ? await activateMember(trx, existing, now)
      : await createMember(
          trx,
          project.id,
          project.environment,
          org.organization_id,
          { email_address: token.email, status: 'active', emailVerified: true },
          now,
        );
    if (member === 'email_taken') {
      // A concurrent sign-up of the same address created the member first: sign in as that one.
      const winner = await memberByEmail(trx, org.organization_id, token.email);
      if (!winner || winner.status === 'deleted') {
        return magicLinkUnusable();
      }
      member = await activateMember(trx, winner, now);
    }
    // A primary sign-in that also proves the address unlocks second factors locked by wrong
    // codes; part of this transaction, so a refusal below keeps them locked.
    await unlockFactors(trx, member.member_id);

    const emailId = await memberEmailId(trx, member.member_id);
    const outcome = await completePrimary(
      ctx,
      trx,
      {
        project,
        organization: org,
        member,
        factors: [emailFactor(member.email_address, emailId, now)],
        durationMinutes: input.session_duration_minutes,
        presented,
        client,
        intermediateSessionToken: input.intermediate_session_token,
        locale: input.locale,
      },
      now,
    );
    if ('failure' in outcome) return outcome;
    return { ...outcome, method_id: emailId };
  });
}
