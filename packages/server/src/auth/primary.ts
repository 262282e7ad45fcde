/** Completes a primary step (e-mail link, password), carrying along the factors of an IST sent with it (§9). */
import type { AuthenticationFactor, Member } from '@gatehouse/protocol';
import type { Context, Db } from '../context.js';
import type { Failure } from '../result.js';
import { completeAuthentication, type AuthOutcome, type CompletionInput } from './complete.js';
import { findIntermediateSession } from './intermediate.js';
import { mergeFactors } from './sessions.js';

/**
 * Merges the factors of an IST sent with a primary call, when it is live and for the same
 * e-mail (and member, if bound); a foreign or stale IST is ignored (§9).
 */
async function withIntermediateFactors(
  db: Db,
  projectId: string,
  token: string | undefined,
  member: Member,
  factors: AuthenticationFactor[],
  now: number,
): Promise<{ factors: AuthenticationFactor[]; intermediateSessionId: string | null }> {
  if (!token) return { factors, intermediateSessionId: null };
  const ist = await findIntermediateSession(db, projectId, token, now);
  if (
    !ist ||
    ist.email !== member.email_address ||
    (ist.memberId !== null && ist.memberId !== member.member_id)
  ) {
    return { factors, intermediateSessionId: null };
  }
  return { factors: mergeFactors(ist.factors, factors), intermediateSessionId: ist.id };
}

/** What a primary step established: {@link CompletionInput} with the raw IST instead of its id. */
export interface PrimaryCompletionInput extends Omit<CompletionInput, 'intermediateSessionId'> {
  /** The factors this step proved, before any IST's are merged in. */
  factors: AuthenticationFactor[];
  /** The IST sent with the call, if any. */
  intermediateSessionToken: string | undefined;
}

/**
 * Grants result AM for a primary step: the IST's earlier factors merged in (so a member who
 * already passed one factor is not asked again), then {@link completeAuthentication}. An IST
 * that was live here but spent by a concurrent call before this one finishes is a failure, never
 * ignored: its factors were counted.
 *
 * @example
 * return completePrimary(ctx, trx, {
 *   project, organization, member, factors: [passwordFactor(now)],
 *   durationMinutes: 30, presented, intermediateSessionToken: body.intermediate_session_token,
 * }, now);
 */
export async function completePrimary(
  ctx: Context,
  db: Db,
  input: PrimaryCompletionInput,
  now: number,
): Promise<AuthOutcome | Failure> {
  const { intermediateSessionToken, ...completion } = input;
  const merged = await withIntermediateFactors(
    db,
    completion.project.id,
    intermediateSessionToken,
    completion.member,
    completion.factors,
    now,
  );
  return completeAuthentication(ctx, db, {
    ...completion,
    factors: merged.factors,
    intermediateSessionId: merged.intermediateSessionId,
  });
}
