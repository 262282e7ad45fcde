/** The factors password flows prove (§9). */
import type { AuthenticationFactor, Member } from '@gatehouse/protocol';
import { isoAt } from '../../context.js';

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
