/**
 * The mail queue: e-mail accepted by a send endpoint, stored (body sealed) until a worker delivers
 * it or gives it up. Safe with any number of workers over one database: each attempt is claimed
 * by a conditional UPDATE, and only the claimant records its outcome.
 */
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.js';
import { isoAt, type Db } from '../store/schema.js';
import type { RenderedEmail } from './templates.js';

/** Where a queued message stands. */
export type MailStatus = 'pending' | 'sent' | 'failed';

/** A queued message as operators see it (never its body). */
export interface QueuedMail {
  id: string;
  to: string;
  subject: string;
  status: MailStatus;
  attempts: number;
  /** When the next attempt is due (pending messages). */
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A message a worker has claimed, with its body opened. */
export interface ClaimedMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** This attempt's number, from 1. */
  attempt: number;
  claimId: string;
  createdAt: number;
  /** Why the previous attempt failed, if one did. */
  lastError: string | null;
}

/** The first retry waits this long; each further one twice as long as the one before. */
export const FIRST_RETRY_MS = 30_000;
/** No wait between retries is longer than this. */
export const MAX_RETRY_DELAY_MS = 15 * 60_000;
/**
 * A message still undelivered this long after it was accepted is failed: the links it carries
 * (sign-in links last an hour, reset links 30 minutes by default) would be of little use by then.
 */
export const MAX_MESSAGE_AGE_MS = 60 * 60_000;
/** A bound on attempts, whatever the schedule: a worker that dies mid-send also spends one. */
export const MAX_ATTEMPTS = 10;
/**
 * How long a claim lasts: a worker that stops while sending (a crash) leaves the message to be
 * tried again after this. Longer than nodemailer's connection, greeting and socket timeouts.
 */
export const CLAIM_LEASE_MS = 2 * 60_000;

/**
 * How long to wait after failed attempt number `attempt` (from 1): 30 s, 1, 2, 4 and 8 minutes,
 * then 15 minutes.
 *
 * @example
 * retryDelay(1); // 30_000
 * retryDelay(7); // 900_000
 */
export function retryDelay(attempt: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
}

let sequence = 0;

/** Ids sort in order of acceptance, like the dev outbox's. */
function mailId(now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `mail-${String(now).padStart(14, '0')}-${String(sequence).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
}

/**
 * Queues one e-mail, due at once. The body (which holds one-time links) is sealed with the
 * server key; the recipient and subject stay readable for `gatehouse outbox list`.
 *
 * @example
 * const id = await enqueueMail(db, box, 'ada@acme.test', magicLinkEmail(...), Date.now());
 */
export async function enqueueMail(
  db: Db,
  box: SecretBox,
  to: string,
  email: RenderedEmail,
  now: number,
): Promise<string> {
  const id = mailId(now);
  await db
    .insertInto('mail_queue')
    .values({
      id,
      recipient: to,
      subject: email.subject,
      body_sealed: box.seal(JSON.stringify({ text: email.text, html: email.html })),
      status: 'pending',
      attempts: 0,
      next_attempt_at: isoAt(now),
      claim_id: null,
      last_error: null,
      created_at: isoAt(now),
      finished_at: null,
    })
    .execute();
  return id;
}

/**
 * Claims pending messages that are due among the `limit` oldest: `scanned` says how many were
 * due (all of them lost to other workers, perhaps), so a caller knows whether to look again.
 * Each claim counts an attempt and pushes the message's due time past the lease, so no other
 * worker takes it meanwhile. The UPDATE is conditional on the row being as it was read (pending, due, same attempt count): of
 * two workers that read the same row, PostgreSQL re-checks the condition for the second after
 * the first commits, and SQLite runs one writer at a time, so exactly one claims it. A loser
 * simply skips the row; no lock is held while sending.
 */
export async function claimDueMail(
  db: Db,
  box: SecretBox,
  now: number,
  limit: number,
): Promise<{ claimed: ClaimedMail[]; scanned: number }> {
  const due = await db
    .selectFrom('mail_queue')
    .select(['id', 'recipient', 'subject', 'body_sealed', 'attempts', 'created_at', 'last_error'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', isoAt(now))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: ClaimedMail[] = [];
  for (const row of due) {
    const claimId = randomUUID();
    const result = await db
      .updateTable('mail_queue')
      .set({
        attempts: row.attempts + 1,
        next_attempt_at: isoAt(now + CLAIM_LEASE_MS),
        claim_id: claimId,
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', row.attempts)
      .where('next_attempt_at', '<=', isoAt(now))
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n || row.body_sealed === null) continue;
    const body = JSON.parse(box.open(row.body_sealed)) as { text: string; html: string };
    claimed.push({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      text: body.text,
      html: body.html,
      attempt: row.attempts + 1,
      claimId,
      createdAt: Date.parse(row.created_at),
      lastError: row.last_error,
    });
  }
  return { claimed, scanned: due.length };
}

/** What became of one attempt. */
export type AttemptOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; error: string; at: number }
  /** `permanent`: refused for good (5xx); `expired`: not delivered in time. */
  | { kind: 'failed'; reason: 'permanent' | 'expired'; error: string };

/**
 * Records the outcome of a claimed attempt: sent or failed (the body removed), or pending again
 * until `at`. Only the claim that made the attempt may record it: false when the lease ran out
 * and another worker has claimed the message since.
 */
export async function recordAttempt(
  db: Db,
  mail: Pick<ClaimedMail, 'id' | 'claimId'>,
  outcome: AttemptOutcome,
  now: number,
): Promise<boolean> {
  const finished = outcome.kind !== 'retry';
  const result = await db
    .updateTable('mail_queue')
    .set({
      status: outcome.kind === 'retry' ? 'pending' : outcome.kind,
      claim_id: null,
      last_error: outcome.kind === 'sent' ? null : outcome.error,
      ...(finished
        ? { body_sealed: null, finished_at: isoAt(now) }
        : { next_attempt_at: isoAt(outcome.at) }),
    })
    .where('id', '=', mail.id)
    .where('claim_id', '=', mail.claimId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * The queue, newest first (at most `limit`, default 50), optionally only one status.
 *
 * @example
 * await listMail(db, { status: 'failed' });
 */
export async function listMail(
  db: Db,
  opts: { status?: MailStatus; limit?: number } = {},
): Promise<QueuedMail[]> {
  let query = db
    .selectFrom('mail_queue')
    .select([
      'id',
      'recipient',
      'subject',
      'status',
      'attempts',
      'next_attempt_at',
      'last_error',
      'created_at',
      'finished_at',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(Math.max(1, Math.min(opts.limit ?? 50, 1000)));
  if (opts.status) query = query.where('status', '=', opts.status);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    to: r.recipient,
    subject: r.subject,
    status: r.status as MailStatus,
    attempts: r.attempts,
    next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
    last_error: r.last_error,
    created_at: r.created_at,
    finished_at: r.finished_at,
  }));
}

/**
 * How many messages wait for delivery, and when the oldest of them was accepted (null if none).
 *
 * @example
 * const { pending } = await mailBacklog(db);
 */
export async function mailBacklog(db: Db): Promise<{ pending: number; oldest: string | null }> {
  const row = await db
    .selectFrom('mail_queue')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('pending'),
      eb.fn.min('created_at').as('oldest'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), oldest: row?.oldest ?? null };
}
