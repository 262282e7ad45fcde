/** Throttling of password guesses per organization (or discovery) and e-mail address typed: a back-off per client IP, and a ceiling across all IPs. */
import { LOGIN_LINK_MINUTES, type Organization } from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import { passwordPausedEmail } from '../../delivery/templates.js';
import {
  countHit,
  forgetBackoff,
  forgetHits,
  refundHit,
  reserveWithBackoff,
} from '../../store/rate-limits.js';
import { issueLinkToken } from '../../auth/link-tokens.js';
import { memberByEmail, memberLocale } from '../../tenancy/members/store.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { resolveRedirectUrl, withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { memberAddress } from '../../tenancy/members/store.js';
import { fail, type Failure } from '../../result.js';

/** A guess that may go on to the password check; give it back with {@link settleGuess} if right. */
export interface ReservedGuess {
  scope: string;
  ip: string;
  countedAt: number;
}

/**
 * The counters of one address in one organization. Keyed by the address typed, not by a member:
 * an unknown address is throttled exactly like a member's, so the answers reveal nobody.
 */
function scopeOf(projectId: string, organizationId: string, email: string): string {
  return `password:${projectId}:${organizationId}:${email}`;
}

/** "1 second", "30 seconds", "15 minutes". */
function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

const OTHER_WAYS = 'or log in with an email link or reset your password.';

/**
 * Reserves one password guess for `email` (normalized) in the organization, from `ip`. Call it
 * before checking the password: the count goes up first and is compared after, so concurrent
 * guesses cannot all reach the check. Refused (429 with the wait) when the address-and-IP
 * back-off still has a wait to run, or when the address has used up its failed attempts across
 * all IPs; the latter also e-mails the member, if there is one, a way in that needs no password.
 *
 * @example
 * const guess = await reserveGuess(ctx, project, organization, 'ada@acme.test', request.ip);
 * if ('failure' in guess) return guess;
 */
export async function reserveGuess(
  ctx: Context,
  project: Project,
  organization: Organization,
  email: string,
  ip: string,
): Promise<ReservedGuess | Failure> {
  const scope = scopeOf(project.id, organization.organization_id, email);
  return reserveIn(ctx, scope, ip, (retryAfter) =>
    tellMember(ctx, project, organization, email, retryAfter),
  );
}

/**
 * Reserves one guess of a password sign-in in discovery (§7.3), for `email` (normalized) across
 * the project's organizations, from `ip`: the same back-off and ceiling as {@link reserveGuess},
 * under counters of their own, kept for the address typed whether or not anyone has it.
 *
 * @example
 * const guess = await reserveDiscoveryGuess(ctx, project, 'ada@acme.test', request.ip);
 */
export function reserveDiscoveryGuess(
  ctx: Context,
  project: Project,
  email: string,
  ip: string,
): Promise<ReservedGuess | Failure> {
  return reserveIn(ctx, `password:${project.id}:discovery:${email}`, ip, async () => {});
}

/** One guess under `scope` from `ip`; `paused` runs when the ceiling refuses it. */
async function reserveIn(
  ctx: Context,
  scope: string,
  ip: string,
  paused: (retryAfter: number) => Promise<void>,
): Promise<ReservedGuess | Failure> {
  const config = ctx.config.passwordThrottle;
  const window = config.windowMinutes * 60;
  const now = ctx.now();
  const backoff = await reserveWithBackoff(
    ctx.db,
    scope,
    ip,
    {
      freeAttempts: config.freeAttempts,
      initialDelaySeconds: config.initialDelaySeconds,
      maxDelaySeconds: config.maxDelaySeconds,
      idleSeconds: window,
    },
    now,
  );
  if (!backoff.allowed) {
    // The ceiling is not counted: one IP waiting out its back-off cannot use up the address.
    const wait = waitText(backoff.retryAfter);
    return fail(
      'too_many_requests',
      `Too many failed attempts for this email address. Try again in ${wait}, ${OTHER_WAYS}`,
      backoff.retryAfter,
    );
  }
  const ceiling = await countHit(ctx.db, scope, config.attemptsPerEmail, window, now);
  if (!ceiling.allowed) {
    await paused(ceiling.retryAfter);
    const wait = waitText(ceiling.retryAfter);
    return fail(
      'too_many_requests',
      `Password login for this email address is paused after too many failed attempts. Try again in ${wait}, ${OTHER_WAYS}`,
      ceiling.retryAfter,
    );
  }
  return { scope, ip, countedAt: now };
}

/**
 * Gives a right guess back: its address-and-IP back-off starts over, and it does not count
 * towards the address's failed attempts. In `db`, which may be the sign-in's own transaction
 * (its writes then share that transaction's one commit).
 */
export async function settleGuess(ctx: Context, db: Db, guess: ReservedGuess): Promise<void> {
  await forgetBackoff(db, guess.scope, guess.ip);
  const window = ctx.config.passwordThrottle.windowMinutes * 60;
  await refundHit(db, guess.scope, window, guess.countedAt);
}

/**
 * Lifts every throttle on the member's address (all IPs, and the ceiling): after a new password,
 * guesses at the old one are moot. Run it in the transaction that saves the password.
 */
export async function forgetGuesses(ctx: Context, db: Db, memberId: string): Promise<void> {
  const member = await memberAddress(db, memberId);
  if (!member) return;
  const scope = scopeOf(member.project_id, member.organization_id, member.email);
  const window = ctx.config.passwordThrottle.windowMinutes * 60;
  await forgetBackoff(db, scope);
  await forgetHits(db, scope, window);
  await forgetHits(db, `${scope}:notice`, window);
}

/**
 * E-mails the member behind a paused address, at most once per window, that password login is
 * paused, with a login link when the project can offer one without a PKCE challenge. Nothing
 * is sent for an unknown address, and the answer to the guess is the same either way.
 */
async function tellMember(
  ctx: Context,
  project: Project,
  organization: Organization,
  email: string,
  resumesInSeconds: number,
): Promise<void> {
  const config = ctx.config.passwordThrottle;
  const scope = scopeOf(project.id, organization.organization_id, email);
  const now = ctx.now();
  const first = await countHit(ctx.db, `${scope}:notice`, 1, config.windowMinutes * 60, now);
  if (!first.allowed) return;
  const member = await memberByEmail(ctx.db, organization.organization_id, email);
  if (!member || member.status !== 'active' || member.member_password_id === '') return;
  // The member's language, not the guesser's: the attempts are likely someone else's.
  const locale = await memberLocale(ctx.db, member.member_id);
  let link: string | null = null;
  const login = resolveRedirectUrl(project, 'login', undefined);
  // A link without a challenge would bypass a project's PKCE requirement: then only directions.
  if (
    login.ok &&
    allowsAuthMethod(organization, 'magic_link') &&
    !project.pkceRequired.email_magic_links
  ) {
    const token = await issueLinkToken(
      ctx.db,
      {
        projectId: project.id,
        kind: 'magic_link',
        email,
        organizationId: organization.organization_id,
        pkceChallenge: null,
        lifetimeMinutes: LOGIN_LINK_MINUTES,
      },
      now,
    );
    link = withToken(login.url, 'multi_tenant_magic_links', token, locale);
  }
  await ctx.mailer.send(
    email,
    passwordPausedEmail(
      link,
      organization.organization_name,
      Math.ceil(resumesInSeconds / 60),
      LOGIN_LINK_MINUTES,
      locale,
    ),
  );
}
