/** The totp product's store: authenticator-app registrations, pending until a first code passes. */
import { isoAt, type Db } from '../../context.js';
import type { TotpRegistrationsTable } from '../../store/schema.js';

/** Drops the member's unconfirmed registrations with their recovery codes. */
export async function deleteUnconfirmedRegistrations(db: Db, memberId: string): Promise<void> {
  const unconfirmed = db
    .selectFrom('totp_registrations')
    .select('id')
    .where('member_id', '=', memberId)
    .where('verified_at', 'is', null);
  await db.deleteFrom('recovery_codes').where('totp_registration_id', 'in', unconfirmed).execute();
  await db
    .deleteFrom('totp_registrations')
    .where('member_id', '=', memberId)
    .where('verified_at', 'is', null)
    .execute();
}

export async function insertRegistration(db: Db, row: TotpRegistrationsTable): Promise<void> {
  await db.insertInto('totp_registrations').values(row).execute();
}

/**
 * The registrations a code may belong to: the newest pending one (an enrollment in progress),
 * then the member's verified one.
 */
export async function candidateRegistrations(
  db: Db,
  memberId: string,
  verifiedId: string,
  now: number,
): Promise<TotpRegistrationsTable[]> {
  const pending = await db
    .selectFrom('totp_registrations')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('verified_at', 'is', null)
    .where('expires_at', '>', isoAt(now))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const verified = verifiedId
    ? await db
        .selectFrom('totp_registrations')
        .selectAll()
        .where('id', '=', verifiedId)
        .where('member_id', '=', memberId)
        .executeTakeFirst()
    : undefined;
  return [pending, verified].filter((r): r is TotpRegistrationsTable => r !== undefined);
}

/**
 * Stores the time step a code was accepted at (and confirms a pending registration); false when
 * this step or a later one was used already, so each code works once, even under concurrency.
 */
export async function useStep(
  db: Db,
  registration: TotpRegistrationsTable,
  step: number,
  now: number,
): Promise<boolean> {
  const stored = await db
    .updateTable('totp_registrations')
    .set({ last_used_step: step, verified_at: registration.verified_at ?? isoAt(now) })
    .where('id', '=', registration.id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return stored.numUpdatedRows === 1n;
}
