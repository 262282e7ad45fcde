/** The caller of an MFA call (§7.7, §9): a member-bound IST or a session, and how a second factor completes it. */
import type { AuthenticationFactor, Member, Organization } from '@gatehouse/protocol';
import type { Context, Db } from '../context.js';
import { memberById } from '../tenancy/members/store.js';
import { organizationById } from '../tenancy/organizations/store.js';
import type { Project } from '../tenancy/projects/service.js';
import { fail, type Failure } from '../result.js';
import { completeAuthentication, type FullSession, type PresentedSession } from './complete.js';
import { consumeIntermediateSession, findIntermediateSession } from './intermediate.js';
import { mergeFactors } from './sessions.js';
import type { ClientInfo } from './client-info.js';
import {
  intermediateSessionNotFound,
  memberGone,
  needsIstOrSession,
  secondFactorFirst,
  sessionNotFound,
} from './errors.js';

/** Who is passing (or managing) a second factor. */
export interface MfaCaller {
  project: Project;
  member: Member;
  organization: Organization;
  /** Factors proven so far: the IST's, or the session's. */
  factors: AuthenticationFactor[];
  /** The IST that authorized the call; null when a session did. */
  intermediateSessionId: string | null;
  /** The live session from `Authorization`, if any. */
  presented: PresentedSession | null;
  /** The browser of the call, recorded on a session it starts. */
  client: ClientInfo;
}

/** What an MFA call names and carries. */
export interface MfaCallInput {
  organization_id: string;
  member_id: string;
  intermediate_session_token?: string | undefined;
}

const MISMATCH = 'member_id and organization_id must be those of the signed-in member.';

/**
 * Resolves the caller of an `I` MFA call. A live IST wins; without one a session serves (an
 * invalid IST falls back to a live session rather than failing a signed-in member). The IST
 * must be bound to the named member (discovery ISTs are not), the session must be that member's,
 * else 401 `unauthorized_credentials`. No IST and no session: 404
 * `intermediate_session_not_found` if an IST was sent, `session_not_found` if a dead session
 * was, else 401.
 */
export async function resolveMfaCaller(
  ctx: Context,
  db: Db,
  project: Project,
  input: MfaCallInput,
  session: { presented: PresentedSession | null; sent: boolean },
  client: ClientInfo,
): Promise<MfaCaller | Failure> {
  const now = ctx.now();
  const ist = input.intermediate_session_token
    ? await findIntermediateSession(db, project.id, input.intermediate_session_token, now)
    : null;
  let memberId: string;
  let organizationId: string;
  let factors: AuthenticationFactor[];
  if (ist) {
    if (ist.memberId === null || ist.organizationId === null) {
      return fail('unauthorized_credentials', MISMATCH);
    }
    memberId = ist.memberId;
    organizationId = ist.organizationId;
    factors = ist.factors;
  } else if (session.presented) {
    memberId = session.presented.row.member_id;
    organizationId = session.presented.row.organization_id;
    factors = JSON.parse(session.presented.row.factors) as AuthenticationFactor[];
  } else if (input.intermediate_session_token) {
    return intermediateSessionNotFound();
  } else if (session.sent) {
    return sessionNotFound();
  } else {
    return needsIstOrSession();
  }
  if (memberId !== input.member_id || organizationId !== input.organization_id) {
    return fail('unauthorized_credentials', MISMATCH);
  }
  const [member, organization] = await Promise.all([
    memberById(db, project.id, memberId),
    organizationById(db, project.id, organizationId),
  ]);
  if (!member || !organization || member.status === 'deleted') {
    return memberGone();
  }
  return {
    project,
    member,
    organization,
    factors,
    intermediateSessionId: ist?.id ?? null,
    presented: session.presented,
    client,
  };
}

/**
 * Whether the caller may register a new second factor (a phone number, a TOTP app). With only an
 * IST, a member who already has one must pass it first: otherwise the primary factor alone
 * could add a factor of the caller's choosing and pass MFA with it.
 */
export function mayRegisterFactor(caller: MfaCaller, hasFactor: boolean): boolean {
  return caller.intermediateSessionId === null || !hasFactor;
}

/** The refusal of {@link mayRegisterFactor}. */
export function registrationRefused(): Failure {
  return secondFactorFirst();
}

/**
 * Grants result F for a passed second factor: the IST is voided first (single use, so two
 * concurrent completions cannot both succeed), then the session is created or, for a session
 * caller, extended with the factor. Without a duration, a session caller keeps its expiry.
 */
export async function completeSecondFactor(
  ctx: Context,
  db: Db,
  caller: MfaCaller,
  member: Member,
  factor: AuthenticationFactor,
  durationMinutes: number | undefined,
  defaultDurationMinutes: number,
): Promise<FullSession | Failure> {
  const now = ctx.now();
  if (caller.intermediateSessionId) {
    const consumed = await consumeIntermediateSession(db, caller.intermediateSessionId, now);
    if (!consumed) {
      return intermediateSessionNotFound();
    }
  }
  const presented = caller.presented;
  const sameSession =
    presented !== null &&
    presented.row.member_id === member.member_id &&
    presented.row.organization_id === caller.organization.organization_id;
  const keep = sameSession ? (Date.parse(presented.row.expires_at) - now) / 60_000 : undefined;
  const outcome = await completeAuthentication(ctx, db, {
    project: caller.project,
    organization: caller.organization,
    member,
    factors: mergeFactors(caller.factors, [factor]),
    durationMinutes: durationMinutes ?? keep ?? defaultDurationMinutes,
    presented,
    intermediateSessionId: null,
    client: caller.client,
  });
  // A secondary factor is present, so completion never asks for another one.
  if (outcome.member_session === null) {
    throw new Error('A second factor did not yield a full session');
  }
  return outcome;
}
