/** The factors password flows prove, and the earlier factors an IST brings along (§9). */
import type { AuthenticationFactor, Member } from '@gatehouse/protocol';
import { isoAt, type Db } from '../../context.js';
import { findIntermediateSession } from '../sessions/intermediate.js';
import { mergeFactors } from '../sessions/service.js';

/** A password typed by the member. */
export function passwordFactor(now: number): AuthenticationFactor {
  return {
    type: 'password',
    delivery_method: 'knowledge',
    last_authenticated_at: isoAt(now),
    sequence_order: 'PRIMARY',
  };
}

/** A new password set from a reset link: it also proves control of the address. */
export function passwordResetFactor(member: Member, emailId: string, now: number) {
  return {
    type: 'password',
    delivery_method: 'email',
    last_authenticated_at: isoAt(now),
    sequence_order: 'PRIMARY',
    email_factor: { email_id: emailId, email_address: member.email_address },
  } satisfies AuthenticationFactor;
}

/**
 * Merges the factors of an IST sent with a primary call, when it is live and for the same
 * e-mail (and member, if bound); a foreign or stale IST is ignored (§9).
 */
export async function withIntermediateFactors(
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
