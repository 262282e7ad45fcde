/** The otp-sms product's store: SMS codes (issued by auth/sms-codes.ts) and the member's phone. */
import { sql, type Selectable } from 'kysely';
import { isoAt, type Db } from '../../context.js';
import type { OtpCodesTable } from '../../store/schema.js';

/** Stores a number new to the member, unverified until a code sent to it passes. */
export async function setUnverifiedPhone(
  db: Db,
  memberId: string,
  phone: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('members')
    .set({ mfa_phone_number: phone, mfa_phone_verified: 0, updated_at: isoAt(now) })
    .where('id', '=', memberId)
    .execute();
}

/** The member's newest code that was not used. */
export async function newestUnusedCode(
  db: Db,
  memberId: string,
): Promise<Selectable<OtpCodesTable> | undefined> {
  return db
    .selectFrom('otp_codes')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/**
 * Counts one attempt against a code by one conditional update, before the code is compared:
 * concurrent guesses each take one of the code's attempts, and none is compared past the cap.
 * Returns the attempts so far, or null when the code is used or spent.
 */
export async function countAttempt(db: Db, id: string, max: number): Promise<number | null> {
  const counted = await db
    .updateTable('otp_codes')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', max)
    .returning('attempts')
    .executeTakeFirst();
  return counted ? Number(counted.attempts) : null;
}

/** Marks a code used; true for exactly one caller, however many race for it. */
export async function useCode(db: Db, id: string, now: number): Promise<boolean> {
  const used = await db
    .updateTable('otp_codes')
    .set({ used_at: isoAt(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows === 1n;
}
