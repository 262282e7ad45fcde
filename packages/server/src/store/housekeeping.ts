/** Housekeeping: deletes rows that can never be used again, so one-time tables stay small. */
import { isoAt, type Db } from '../context.js';

/** How long spent rows are kept after they expire, for support and forensics. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/** Counts of deleted rows, per table. */
export interface PurgeResult {
  tokens: number;
  intermediateSessions: number;
  sessions: number;
  rateLimits: number;
  otpCodes: number;
  /** TOTP registrations never confirmed, with their recovery codes. */
  pendingTotps: number;
}

/**
 * Deletes link tokens, intermediate sessions, sessions, SMS codes and unconfirmed TOTP
 * registrations that expired (or were revoked) more than a day ago, and rate-limit windows older
 * than a day. Safe to run from every instance.
 *
 * @example
 * await purgeExpired(db, Date.now());
 */
export async function purgeExpired(db: Db, now: number): Promise<PurgeResult> {
  const cutoff = isoAt(now - RETENTION_MS);
  const tokens = await db.deleteFrom('tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  const ists = await db
    .deleteFrom('intermediate_sessions')
    .where('expires_at', '<', cutoff)
    .executeTakeFirst();
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  const windows = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', Math.floor((now - RETENTION_MS) / 1000))
    .executeTakeFirst();
  const otpCodes = await db
    .deleteFrom('otp_codes')
    .where('expires_at', '<', cutoff)
    .executeTakeFirst();
  const abandoned = db
    .selectFrom('totp_registrations')
    .select('id')
    .where('verified_at', 'is', null)
    .where('expires_at', '<', cutoff);
  await db.deleteFrom('recovery_codes').where('totp_registration_id', 'in', abandoned).execute();
  const pendingTotps = await db
    .deleteFrom('totp_registrations')
    .where('verified_at', 'is', null)
    .where('expires_at', '<', cutoff)
    .executeTakeFirst();
  return {
    tokens: Number(tokens.numDeletedRows),
    intermediateSessions: Number(ists.numDeletedRows),
    sessions: Number(sessions.numDeletedRows),
    rateLimits: Number(windows.numDeletedRows),
    otpCodes: Number(otpCodes.numDeletedRows),
    pendingTotps: Number(pendingTotps.numDeletedRows),
  };
}
