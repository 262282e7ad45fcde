/** Housekeeping: deletes rows that can never be used again, and old telemetry, so tables stay small. */
import { DEFAULT_EVENT_RETENTION_DAYS } from '../config.js';
import { isoAt, type Db } from './schema.js';

/** How long spent rows are kept after they expire, for support and forensics. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/** How long an e-mail given up stays listed (`gatehouse outbox list --status failed`). */
export const FAILED_MAIL_RETENTION_MS = 7 * RETENTION_MS;

/** Options of {@link purgeExpired}. */
export interface PurgeOptions {
  /** How long telemetry events are kept from their arrival; default 30 days. */
  eventRetentionDays?: number;
}

/** Counts of deleted rows, per table. */
export interface PurgeResult {
  tokens: number;
  intermediateSessions: number;
  sessions: number;
  /** Fixed windows and back-off counters. */
  rateLimits: number;
  otpCodes: number;
  /** TOTP registrations never confirmed, with their recovery codes. */
  pendingTotps: number;
  /** Telemetry events older than their retention. */
  events: number;
  /** Queued e-mail sent more than a day ago, or given up more than a week ago. */
  mail: number;
}

/**
 * Deletes link tokens, intermediate sessions, sessions, SMS codes and unconfirmed TOTP
 * registrations that expired (or were revoked) more than a day ago, rate-limit windows and
 * back-off counters untouched for a day, telemetry events past their retention (30 days unless
 * told otherwise), and queued e-mail sent a day ago or given up a week ago (their bodies are
 * already gone; recipients and errors stay that long for operators). Safe to run from every
 * instance.
 *
 * @example
 * await purgeExpired(db, Date.now(), { eventRetentionDays: config.eventRetentionDays });
 */
export async function purgeExpired(
  db: Db,
  now: number,
  options: PurgeOptions = {},
): Promise<PurgeResult> {
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
  const cutoffSeconds = Math.floor((now - RETENTION_MS) / 1000);
  const windows = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', cutoffSeconds)
    .executeTakeFirst();
  const backoffs = await db
    .deleteFrom('rate_limit_backoffs')
    .where('last_attempt', '<', cutoffSeconds)
    .where('blocked_until', '<', cutoffSeconds)
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
  const eventRetentionMs =
    (options.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS) * 86_400_000;
  const events = await db
    .deleteFrom('events')
    .where('created_at', '<', isoAt(now - eventRetentionMs))
    .executeTakeFirst();
  const mail = await db
    .deleteFrom('mail_queue')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'sent'), eb('finished_at', '<', cutoff)]),
        eb.and([
          eb('status', '=', 'failed'),
          eb('finished_at', '<', isoAt(now - FAILED_MAIL_RETENTION_MS)),
        ]),
      ]),
    )
    .executeTakeFirst();
  return {
    tokens: Number(tokens.numDeletedRows),
    intermediateSessions: Number(ists.numDeletedRows),
    sessions: Number(sessions.numDeletedRows),
    rateLimits: Number(windows.numDeletedRows) + Number(backoffs.numDeletedRows),
    otpCodes: Number(otpCodes.numDeletedRows),
    pendingTotps: Number(pendingTotps.numDeletedRows),
    events: Number(events.numDeletedRows),
    mail: Number(mail.numDeletedRows),
  };
}
