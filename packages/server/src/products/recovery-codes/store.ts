/** The recovery-codes product's store: codes of a TOTP registration, hashed, with sealed copies. */
import type { Insertable } from 'kysely';
import { isoAt, type Db } from '../../context.js';
import type { RecoveryCodesTable } from '../../store/schema.js';

/** Stores new codes. */
export async function insertRecoveryCodes(
  db: Db,
  rows: Insertable<RecoveryCodesTable>[],
): Promise<void> {
  await db.insertInto('recovery_codes').values(rows).execute();
}

/** The unused codes of the member's verified TOTP registration. */
export async function unusedCodes(db: Db, memberId: string, registrationId: string) {
  return db
    .selectFrom('recovery_codes')
    .select(['id', 'code_hash', 'code_encrypted'])
    .where('member_id', '=', memberId)
    .where('totp_registration_id', '=', registrationId)
    .where('used_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Marks a code used; true for exactly one caller, however many race for it. */
export async function useRecoveryCode(db: Db, id: string, now: number): Promise<boolean> {
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: isoAt(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows === 1n;
}

/** Deletes every code of a registration. */
export async function deleteRecoveryCodes(
  db: Db,
  memberId: string,
  registrationId: string,
): Promise<void> {
  await db
    .deleteFrom('recovery_codes')
    .where('member_id', '=', memberId)
    .where('totp_registration_id', '=', registrationId)
    .execute();
}

/**
 * Locks the member's row until the transaction ends, so that two rotations of one member run one
 * after the other: each deletes what the one before it stored, and one set of codes survives.
 */
export async function lockCodesOwner(db: Db, memberId: string): Promise<void> {
  await db
    .updateTable('members')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', memberId)
    .execute();
}
