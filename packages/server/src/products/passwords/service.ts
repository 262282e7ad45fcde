/** Passwords (§7.2): sign-in, reset by existing password and by session, strength check, and setting a member's password. */
import {
  isValidEmail,
  type Member,
  type Organization,
  type PasswordStrengthCheck,
  type Environment,
} from '@gatehouse/protocol';
import type { Context, Db } from '../../context.js';
import {
  hashPassword,
  isCurrentHash,
  verifyAgainstDummy,
  verifyPassword,
} from '../../crypto/password-hash.js';
import { memberById, normalizeEmail } from '../../tenancy/members/store.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import {
  completeAuthentication,
  fullSession,
  type AuthOutcome,
  type FullSession,
  type PresentedSession,
} from '../../auth/complete.js';
import { completePrimary } from '../../auth/primary.js';
import type { ClientInfo } from '../../auth/client-info.js';
import { sessionLifetime, touchSession } from '../../auth/sessions.js';
import {
  isSupportedHash,
  memberWithPasswordByEmail,
  savePassword,
  storedPassword,
  upgradePasswordHash,
} from './store.js';
import { passwordFactor } from './factors.js';
import { acceptableNewPassword, strengthFor } from './rules.js';
import { forgetGuesses, reserveGuess, settleGuess, type ReservedGuess } from './throttle.js';
import { sessionNotFound } from '../../auth/errors.js';
import { invalidEmail } from '../../tenancy/members/errors.js';
import { organizationNotFound } from '../../tenancy/organizations/errors.js';
import { passwordAndHash, passwordsNotAllowed, resetRequired, unsupportedHash } from './errors.js';

/** The one answer to a wrong e-mail or a wrong password: the two must be indistinguishable. */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';

/** The organization of a password call, if it exists and accepts passwords. */
async function passwordOrganization(
  ctx: Context,
  project: Project,
  organizationId: string,
): Promise<Organization | Failure> {
  const org = await organizationById(ctx.db, project.id, organizationId);
  if (!org) return organizationNotFound();
  if (!allowsAuthMethod(org, 'password')) {
    return passwordsNotAllowed();
  }
  return org;
}

/** A member who proved their password, with the stored row that was checked. */
interface VerifiedMember {
  organization: Organization;
  member: Member;
  password: { id: string; hash: string };
  needsRehash: boolean;
  /** The right guess, still to give back with `settleGuess`. */
  guess: ReservedGuess;
}

/**
 * Checks an e-mail and password against the organization's members. Unknown addresses, members
 * without a password and wrong passwords all fail alike, after the same argon2 work. Every guess
 * is first reserved against the throttle of the address typed (from `clientIp`, and across all
 * IPs): a refused one is answered 429 without any check, whoever the address belongs to. A right
 * guess is the caller's to give back (`settleGuess`), so that a sign-in can do it in the
 * transaction that creates its session.
 */
async function verifyCredentials(
  ctx: Context,
  project: Project,
  input: { organization_id: string; email_address: string; password: string },
  clientIp: string,
): Promise<VerifiedMember | Failure> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  const organization = await passwordOrganization(ctx, project, input.organization_id);
  if ('failure' in organization) return organization;
  // Counted before the check and compared after: concurrent guesses cannot all be checked.
  const guess = await reserveGuess(ctx, project, organization, email, clientIp);
  if ('failure' in guess) return guess;
  const found = await memberWithPasswordByEmail(ctx.db, organization.organization_id, email);
  const member = found?.member;
  // Only active members sign in with a password; invited and pending ones prove their address first.
  const password = member?.status === 'active' ? found?.password : null;
  const verdict = password
    ? await verifyPassword(password.hash, input.password)
    : { valid: await verifyAgainstDummy(input.password), needsRehash: false };
  // A wrong password against an imported hash (salted MD5, say, or a cheaper argon2) costs at
  // least what an unknown address does: the time of a refusal does not tell who has such a hash.
  if (password && !verdict.valid && !isCurrentHash(password.hash)) {
    await verifyAgainstDummy(input.password);
  }
  if (!member || !password || !verdict.valid) {
    return fail('unauthorized_credentials', INVALID_CREDENTIALS_MESSAGE);
  }
  // Said only to whoever typed the right password, so it tells no one else the address is known.
  if (password.resetRequired) {
    await settleGuess(ctx, ctx.db, guess);
    return resetRequired();
  }
  return { organization, member, password, needsRehash: verdict.needsRehash, guess };
}

/** Input of {@link authenticatePassword}. */
export interface PasswordAuthenticateInput {
  organization_id: string;
  email_address: string;
  password: string;
  session_duration_minutes: number;
  intermediate_session_token?: string | undefined;
  locale?: string | undefined;
}

/**
 * Signs a member in with their password: result AM. An imported or outdated hash is replaced
 * by an argon2id hash of the same password on the way.
 */
export async function authenticatePassword(
  ctx: Context,
  project: Project,
  input: PasswordAuthenticateInput,
  presented: PresentedSession | null,
  clientIp: string,
  client: ClientInfo,
): Promise<AuthOutcome | Failure> {
  const verified = await verifyCredentials(ctx, project, input, clientIp);
  if ('failure' in verified) return verified;
  const { organization, member, password, guess } = verified;
  // Hashing is slow: it happens before the transaction so no write lock waits on it.
  const upgraded = verified.needsRehash ? await hashPassword(input.password) : null;
  const outcome = await allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    // The right guess is given back in the session's transaction, one commit for all the writes
    // (on SQLite each commit of its own costs more than the statement). First, as a password
    // reset's transaction touches the counters first too, so the two take row locks in one order.
    await settleGuess(ctx, trx, guess);
    if (upgraded) await upgradePasswordHash(trx, password.id, password.hash, upgraded, now);
    return completePrimary(
      ctx,
      trx,
      {
        project,
        organization,
        member,
        factors: [passwordFactor(now)],
        durationMinutes: input.session_duration_minutes,
        presented,
        intermediateSessionToken: input.intermediate_session_token,
        locale: input.locale,
        client,
      },
      now,
    );
  });
  // Rolled back with a failure of its own: the guess was right all the same.
  if (isFailure(outcome)) await settleGuess(ctx, ctx.db, guess);
  return outcome;
}

/** Input of {@link resetByExistingPassword}. */
export interface ExistingPasswordResetInput {
  organization_id: string;
  email_address: string;
  existing_password: string;
  new_password: string;
  session_duration_minutes: number;
  locale?: string | undefined;
}

/**
 * Changes a password by proving the current one (throttled like a sign-in), then
 * signs the member in: result AM with a new session, since the change ends every session of the
 * member, including one sent with the call.
 */
export async function resetByExistingPassword(
  ctx: Context,
  project: Project,
  input: ExistingPasswordResetInput,
  clientIp: string,
  client: ClientInfo,
): Promise<AuthOutcome | Failure> {
  const verified = await verifyCredentials(
    ctx,
    project,
    {
      organization_id: input.organization_id,
      email_address: input.email_address,
      password: input.existing_password,
    },
    clientIp,
  );
  if ('failure' in verified) return verified;
  const { organization, member } = verified;
  await settleGuess(ctx, ctx.db, verified.guess);
  const weak = await acceptableNewPassword(ctx, project, input.new_password, member.email_address);
  if (weak) return weak;
  const hash = await hashPassword(input.new_password);
  return transaction(ctx.db, async (trx) => {
    const now = ctx.now();
    await savePassword(
      trx,
      { projectId: project.id, environment: project.environment, memberId: member.member_id, hash },
      now,
    );
    await forgetGuesses(ctx, trx, member.member_id);
    return completeAuthentication(ctx, trx, {
      project,
      organization,
      member,
      factors: [passwordFactor(now)],
      durationMinutes: input.session_duration_minutes,
      locale: input.locale,
      client,
    });
  });
}

/**
 * Checks a member's current password before a change, throttled like a sign-in with their
 * address (a stolen session cannot guess it faster than a sign-in form). Undefined when right.
 */
async function proveCurrentPassword(
  ctx: Context,
  project: Project,
  organization: Organization,
  member: Member,
  existing: string,
  clientIp: string,
): Promise<Failure | undefined> {
  const guess = await reserveGuess(ctx, project, organization, member.email_address, clientIp);
  if ('failure' in guess) return guess;
  const stored = await storedPassword(ctx.db, member.member_id);
  const valid = stored
    ? (await verifyPassword(stored.hash, existing)).valid
    : await verifyAgainstDummy(existing).then(() => false);
  // Not unauthorized_credentials: that type says the session is dead (UNRECOVERABLE_ERROR_TYPES,
  // docs/protocol.md §3), and a host following it would sign a live session out.
  if (!valid) return fail('existing_password_mismatch', 'The current password is wrong.');
  await settleGuess(ctx, ctx.db, guess);
  return undefined;
}

/** What a session reset may carry besides the new password. */
export interface SessionResetOptions {
  /** The current password, checked before the change when given. */
  existingPassword?: string | undefined;
  clientIp: string;
}

/**
 * Sets the password of the session's member (after a login link, for a member who had none, or
 * to change it): result F for the same session, the only one of the member that survives. With
 * `existingPassword`, only if it is the member's current password.
 */
export async function resetBySession(
  ctx: Context,
  project: Project,
  session: PresentedSession,
  password: string,
  options?: SessionResetOptions,
): Promise<FullSession | Failure> {
  const [member, organization] = await Promise.all([
    memberById(ctx.db, project.id, session.row.member_id),
    organizationById(ctx.db, project.id, session.row.organization_id),
  ]);
  if (!member || !organization || member.status === 'deleted') {
    return sessionNotFound();
  }
  if (!allowsAuthMethod(organization, 'password')) {
    return passwordsNotAllowed();
  }
  if (options?.existingPassword !== undefined) {
    const wrong = await proveCurrentPassword(
      ctx,
      project,
      organization,
      member,
      options.existingPassword,
      options.clientIp,
    );
    if (wrong) return wrong;
  }
  const weak = await acceptableNewPassword(ctx, project, password, member.email_address);
  if (weak) return weak;
  const hash = await hashPassword(password);
  return transaction(ctx.db, async (trx) => {
    const now = ctx.now();
    const passwordId = await savePassword(
      trx,
      {
        projectId: project.id,
        environment: project.environment,
        memberId: member.member_id,
        hash,
        keepSessionId: session.row.id,
      },
      now,
    );
    await forgetGuesses(ctx, trx, member.member_id);
    const row = await touchSession(trx, session.row, now, {
      maxLifetimeMinutes: sessionLifetime(ctx, project),
    });
    const updated = { ...member, member_password_id: passwordId };
    return fullSession(ctx, project, organization, updated, row, session.token);
  });
}

/**
 * Rates a candidate password under the project's policy, as the reset form shows it.
 *
 * @example
 * const check = await passwordStrength(ctx, project, 'correct horse', 'ada@acme.test');
 */
export function passwordStrength(
  ctx: Context,
  project: Project,
  password: string,
  email: string | undefined,
): Promise<PasswordStrengthCheck> {
  return strengthFor(ctx, project, password, email ? normalizeEmail(email) : undefined);
}

/** A password to set for a member: in clear (checked against the policy) or an imported hash. */
export interface SetPasswordInput {
  password?: string | undefined;
  hash?: string | undefined;
}

/**
 * Sets a member's password on behalf of the project (management API, admin, CLI). A clear
 * password must satisfy the project's policy; an imported hash must be in a format we verify,
 * and is replaced by argon2id at the member's next login. Either lifts the password throttle and ends
 * every session and IST of the member.
 */
export async function setMemberPassword(
  ctx: Context,
  project: Project,
  member: Member,
  input: SetPasswordInput,
): Promise<Member | Failure> {
  if ((input.password === undefined) === (input.hash === undefined)) {
    return passwordAndHash();
  }
  let hash: string;
  if (input.hash !== undefined) {
    if (!isSupportedHash(input.hash)) {
      return unsupportedHash();
    }
    hash = input.hash;
  } else {
    const password = input.password ?? '';
    const weak = await acceptableNewPassword(ctx, project, password, member.email_address);
    if (weak) return weak;
    hash = await hashPassword(password);
  }
  return transaction(ctx.db, async (trx) => {
    const passwordId = await savePassword(
      trx,
      { projectId: project.id, environment: project.environment, memberId: member.member_id, hash },
      ctx.now(),
    );
    await forgetGuesses(ctx, trx, member.member_id);
    return (
      (await memberById(trx, project.id, member.member_id)) ?? {
        ...member,
        member_password_id: passwordId,
      }
    );
  });
}

/**
 * Stores a password hash (checked by the caller against the project's policy) for a member being
 * created or set up by the host: the management API's member create with a password.
 */
export function storeMemberPassword(
  db: Db,
  input: { projectId: string; environment: Environment; memberId: string; hash: string },
  now: number,
): Promise<string> {
  return savePassword(db, input, now);
}
