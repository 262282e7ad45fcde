/** Turns a verified identity into result F or AM (§5, §9, §14): the one place sessions are granted. */
import type {
  AuthenticationFactor,
  FullSessionResult,
  Member,
  MemberSession,
  MfaPendingResult,
  MfaRequired,
  Organization,
} from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../context.js';
import { SmsDeliveryError } from '../delivery/sms.js';
import { memberLocale, rememberMemberLocale } from '../tenancy/members/store.js';
import { recordSignIn } from '../tenancy/members/store-sign-ins.js';
import { issueSmsCode, smsSendAllowed } from './sms-codes.js';
import type { Project } from '../tenancy/projects/service.js';
import type { Failure } from '../result.js';
import { consumeIntermediateSession, createIntermediateSession } from './intermediate.js';
import { factorsFor, isSecondFactor } from './factor-scope.js';
import { chosenMfaMethod } from './mfa-policy.js';
import {
  organizationSessionLifetime,
  createSession,
  mergeFactors,
  reusableSessionJwt,
  signSessionJwt,
  toMemberSession,
  touchSession,
} from './sessions.js';
import type { SessionsTable } from '../store/schema.js';
import type { ClientInfo } from './client-info.js';
import { deepFreeze, isDeeplyFrozen } from '../store/read-cache.js';
import { intermediateSessionNotFound, sessionTooOldToEnter } from './errors.js';

/** Result data without the envelope's `request_id` and `status_code`. */
export type FullSession = Omit<FullSessionResult, 'request_id' | 'status_code'>;
export type MfaPending = Omit<MfaPendingResult, 'request_id' | 'status_code'>;
export type AuthOutcome = FullSession | MfaPending;

/** A live session presented in `Authorization`, with its token. */
export interface PresentedSession {
  row: SessionsTable;
  token: string;
}

/** What a primary or exchange step established. */
export interface CompletionInput {
  project: Project;
  organization: Organization;
  member: Member;
  /** All factors proven so far (earlier IST factors already merged in). */
  factors: AuthenticationFactor[];
  durationMinutes: number;
  /** A live session from `Authorization`; it gains the factors if it is the same member's. */
  presented?: PresentedSession | null;
  /** An IST to void if this yields a full session. */
  intermediateSessionId?: string | null;
  /**
   * Set when the step proved nothing new but continues an earlier session (an exchange into
   * another organization): a new session keeps that session's start, so exchanging back and
   * forth never renews the absolute lifetime.
   */
  continues?: SessionsTable | null;
  /**
   * The call's `locale` (docs/protocol.md §7): remembered on the member, and the language of a
   * code texted now.
   */
  locale?: string | undefined;
  /** The browser of the call, recorded on a new session (`NO_CLIENT` for a host backend). */
  client: ClientInfo;
}

/**
 * Whether the member must still pass a second factor (§9). `factors` must already be scoped to the
 * member by {@link factorsFor}, so only the member's own second factors count.
 */
export function mfaNeeded(
  organization: Organization,
  member: Member,
  factors: AuthenticationFactor[],
): boolean {
  const required = organization.mfa_policy === 'REQUIRED_FOR_ALL' || member.mfa_enrolled;
  return required && !factors.some(isSecondFactor);
}

/** The `mfa_required` object for a member who still needs a second factor. */
export function mfaRequiredFor(member: Member): MfaRequired {
  return {
    member_options: member.mfa_phone_number ? { mfa_phone_number: member.mfa_phone_number } : null,
    secondary_auth_initiated: null,
  };
}

/**
 * Starts the second factor when the server can (§9): if the login will use a verified phone, the
 * code is texted now and `secondary_auth_initiated` says so. Over the send limits, or if the
 * provider fails, nothing is sent and the widget sends when it shows the code entry.
 */
async function initiateMfa(
  ctx: Context,
  db: Db,
  project: Project,
  organization: Organization,
  member: Member,
  locale: string | null,
): Promise<MfaRequired> {
  const required = mfaRequiredFor(member);
  if (chosenMfaMethod(organization, member) !== 'sms_otp') return required;
  const phone = member.mfa_phone_number;
  if (!(await smsSendAllowed(ctx, db, member.member_id, phone))) return required;
  const initiated: MfaRequired = { ...required, secondary_auth_initiated: 'sms_otp' };
  // The text goes out after the commit; if the provider fails then, the answer (not yet sent)
  // says nothing was texted, and the widget sends when it shows the code entry.
  const undelivered = (error: SmsDeliveryError) => {
    ctx.log.warn({ err: error, member_id: member.member_id }, 'MFA code could not be texted');
    initiated.secondary_auth_initiated = null;
  };
  try {
    await issueSmsCode(ctx, db, project, member.member_id, phone, {
      locale,
      onFailure: undelivered,
    });
  } catch (error) {
    if (!(error instanceof SmsDeliveryError)) throw error;
    undelivered(error);
    return required;
  }
  return initiated;
}

/**
 * Grants the result of an authentication: variant B with a member-bound IST when MFA remains
 * (the SMS code already sent when the member's method is a verified phone), else a full session
 * (the presented one extended, same token, when it belongs to the same member and organization
 * and is within its absolute lifetime; otherwise a new one). A full session spends the IST of
 * `intermediateSessionId` first: when a concurrent call already spent it, the result is 404
 * `intermediate_session_not_found` and no session is created, so call this inside the caller's
 * transaction (see `allOrNothing`) to undo the caller's earlier writes too. A session never
 * outlives the organization's own limit; continuing one that started before it allows is 403
 * `primary_auth_required`. A full session records the sign-in on the member (`last_sign_in_at`).
 */
export function completeAuthentication(
  ctx: Context,
  db: Db,
  input: CompletionInput & { intermediateSessionId?: null; continues?: null },
): Promise<AuthOutcome>;
export function completeAuthentication(
  ctx: Context,
  db: Db,
  input: CompletionInput,
): Promise<AuthOutcome | Failure>;
export async function completeAuthentication(
  ctx: Context,
  db: Db,
  input: CompletionInput,
): Promise<AuthOutcome | Failure> {
  const { project, organization, member } = input;
  const now = ctx.now();
  if (input.locale) await rememberMemberLocale(db, member.member_id, input.locale);
  // A second factor counts only for the member who passed it, in that member's organization.
  const factors = await factorsFor(db, member, input.factors);
  if (mfaNeeded(organization, member, factors)) {
    const ist = await createIntermediateSession(
      db,
      project,
      {
        email: member.email_address,
        memberId: member.member_id,
        organizationId: organization.organization_id,
        factors,
      },
      now,
    );
    return {
      member_id: member.member_id,
      member,
      organization,
      member_session: null,
      session_token: '',
      session_jwt: '',
      member_authenticated: false,
      intermediate_session_token: ist,
      mfa_required: await initiateMfa(
        ctx,
        db,
        project,
        organization,
        member,
        input.locale ?? (await memberLocale(db, member.member_id)),
      ),
    };
  }

  // Single use: the IST is spent before any session exists, so of calls racing with the same
  // IST exactly one gets a session.
  if (
    input.intermediateSessionId &&
    !(await consumeIntermediateSession(db, input.intermediateSessionId, now))
  ) {
    return intermediateSessionNotFound();
  }

  let row: SessionsTable;
  let token: string;
  const presented = input.presented;
  const maxLifetimeMinutes = organizationSessionLifetime(ctx, project, organization);
  if (
    presented &&
    presented.row.member_id === member.member_id &&
    presented.row.organization_id === organization.organization_id &&
    Date.parse(presented.row.started_at) + maxLifetimeMinutes * 60_000 > now
  ) {
    row = await touchSession(db, presented.row, now, {
      durationMinutes: input.durationMinutes,
      factors,
      maxLifetimeMinutes,
    });
    token = presented.token;
  } else {
    const startedAt = input.continues ? Date.parse(input.continues.started_at) : now;
    // An exchange keeps the start of the session it continues: past the organization's limit,
    // the person signs in to it afresh rather than get a session born expired.
    if (startedAt + maxLifetimeMinutes * 60_000 <= now) return sessionTooOldToEnter();
    ({ row, token } = await createSession(
      db,
      project,
      member,
      mergeFactors([], factors),
      input.durationMinutes,
      now,
      maxLifetimeMinutes,
      input.client,
      startedAt,
    ));
  }
  // A completed sign-in, whatever the method; session checks never come here (the hot path).
  const signedInAt = isoAt(now);
  await recordSignIn(db, member.member_id, signedInAt);
  const signedIn = { ...member, last_sign_in_at: signedInAt };
  return fullSession(ctx, project, organization, signedIn, row, token);
}

/** The member sessions made of remembered (frozen) rows, with what they were made with. */
const rememberedMemberSessions = new WeakMap<
  SessionsTable,
  { member: Member; organization: Organization; memberSession: MemberSession }
>();

/**
 * The wire form of a session. A remembered session row that a refresh left as it was (the
 * checks within the access resolution) gives the same frozen object to every check, so the
 * answer reuses its JSON (`http/answer-json.ts`).
 */
function memberSessionOf(row: SessionsTable, member: Member, organization: Organization) {
  if (!isDeeplyFrozen(row)) {
    return toMemberSession(row, member, organization.organization_slug);
  }
  const remembered = rememberedMemberSessions.get(row);
  // The same frozen member and organization: the roles and slug it was made with are the same.
  if (remembered?.member === member && remembered.organization === organization) {
    return remembered.memberSession;
  }
  const memberSession = deepFreeze(toMemberSession(row, member, organization.organization_slug));
  rememberedMemberSessions.set(row, { member, organization, memberSession });
  return memberSession;
}

/** Results F made of a remembered session, with what they were made of besides it. */
const rememberedResults = new WeakMap<
  MemberSession,
  { member: Member; organization: Organization; token: string; jwt: string; result: FullSession }
>();

/**
 * Renders result F for a session row and its token, with a freshly signed (or reused) JWT. A
 * remembered session that a check left as it was gives the same frozen result to every check
 * that answers it with the same JWT, so the answer reuses its whole text (`http/answer-json.ts`).
 */
export async function fullSession(
  ctx: Context,
  project: Project,
  organization: Organization,
  member: Member,
  row: SessionsTable,
  token: string,
): Promise<FullSession> {
  const memberSession = memberSessionOf(row, member, organization);
  const jwt = await signSessionJwt(ctx, project, memberSession, organization, row);
  return resultOf(organization, member, memberSession, token, jwt);
}

/**
 * {@link fullSession} without waiting, when its JWT is one to hand out again (signed in the
 * last 30 seconds for the session as it is): what a check of a remembered session answers. Null
 * when a JWT must be signed (then call `fullSession`).
 *
 * @example
 * const result = fullSessionNow(ctx, project, organization, member, row, token) ?? (await fullSession(…));
 */
export function fullSessionNow(
  ...[ctx, project, organization, member, row, token]: Parameters<typeof fullSession>
): FullSession | null {
  const memberSession = memberSessionOf(row, member, organization);
  const jwt = reusableSessionJwt(ctx, project, memberSession, organization, row);
  return jwt === null ? null : resultOf(organization, member, memberSession, token, jwt);
}

/** Result F of these parts: the remembered one when they are all the same as last time. */
function resultOf(
  organization: Organization,
  member: Member,
  memberSession: MemberSession,
  token: string,
  jwt: string,
): FullSession {
  const remembered = isDeeplyFrozen(memberSession)
    ? rememberedResults.get(memberSession)
    : undefined;
  if (
    remembered?.jwt === jwt &&
    remembered.token === token &&
    remembered.member === member &&
    remembered.organization === organization
  ) {
    return remembered.result;
  }
  const result: FullSession = {
    member_id: member.member_id,
    member,
    organization,
    member_session: memberSession,
    session_token: token,
    session_jwt: jwt,
    member_authenticated: true,
    intermediate_session_token: '',
    mfa_required: null,
  };
  if (!isDeeplyFrozen(memberSession) || !isDeeplyFrozen(member) || !isDeeplyFrozen(organization)) {
    return result;
  }
  const frozen = deepFreeze(result);
  rememberedResults.set(memberSession, { member, organization, token, jwt, result: frozen });
  return frozen;
}
