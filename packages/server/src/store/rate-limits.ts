/** Fixed-window counters in the `rate_limits` table, shared by every server instance. */
import { sql } from 'kysely';
import { preparedQuery } from './prepared.js';
import type { Db } from './schema.js';

/** One limit to apply: a key (already scoped, e.g. `send:ip:…`), a count and a window. */
export interface RateRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** The outcome of counting one hit. */
export interface RateLimitHit {
  allowed: boolean;
  /** Seconds until the current window ends. */
  retryAfter: number;
}

// Every sign-in, code and link counts hits: built once (see `preparedQuery`).
const hitCounted = preparedQuery((db, p: { key: string; windowStart: number }) =>
  db
    .insertInto('rate_limits')
    .values({ key: p.key, window_start: p.windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // SET expressions read the old row, so the window test sees the stored window.
        count: sql<number>`CASE WHEN rate_limits.window_start = ${p.windowStart} THEN rate_limits.count + 1 ELSE 1 END`,
        window_start: p.windowStart,
      }),
    )
    .returning(['count']),
);
const hitRefunded = preparedQuery((db, p: { key: string; windowStart: number }) =>
  db
    .updateTable('rate_limits')
    .set({ count: sql<number>`rate_limits.count - 1` })
    .where('key', '=', p.key)
    .where('window_start', '=', p.windowStart)
    .where('count', '>', 0),
);
const hitsForgotten = preparedQuery((db, p: { key: string }) =>
  db.deleteFrom('rate_limits').where('key', '=', p.key),
);

/**
 * Counts a hit against `key` in a window of `windowSeconds` and says whether it is within
 * `limit`. One atomic upsert, so concurrent instances never lose a count.
 *
 * @example
 * const { allowed } = await countHit(db, 'send:ip:1.2.3.4', 100, 3600, Date.now());
 */
export async function countHit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
  now: number,
): Promise<RateLimitHit> {
  const nowSeconds = Math.floor(now / 1000);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const [row] = await hitCounted(db, { key: `${key}:${windowSeconds}`, windowStart });
  if (!row) throw new Error('The rate limit upsert returned no row.');
  return {
    allowed: Number(row.count) <= limit,
    retryAfter: Math.max(1, windowStart + windowSeconds - nowSeconds),
  };
}

/**
 * Gives back a hit counted by {@link countHit} at `countedAt`, for work that turned out not to
 * be abuse (a right password). Only the window it was counted in is touched: a hit from a window
 * that has since ended is already forgotten.
 *
 * @example
 * await refundHit(db, 'password:email:…', 3600, countedAt);
 */
export async function refundHit(
  db: Db,
  key: string,
  windowSeconds: number,
  countedAt: number,
): Promise<void> {
  const countedSeconds = Math.floor(countedAt / 1000);
  const windowStart = countedSeconds - (countedSeconds % windowSeconds);
  await hitRefunded(db, { key: `${key}:${windowSeconds}`, windowStart });
}

/**
 * Forgets every hit counted against `key` in windows of `windowSeconds`.
 *
 * @example
 * await forgetHits(db, 'password:email:…', 3600);
 */
export async function forgetHits(db: Db, key: string, windowSeconds: number): Promise<void> {
  await hitsForgotten(db, { key: `${key}:${windowSeconds}` });
}

/** How a back-off counter grows: some attempts free, then a wait that doubles with each one. */
export interface BackoffPolicy {
  /** Attempts allowed back to back before the first wait. */
  freeAttempts: number;
  /** The wait after the last free attempt, in seconds; it doubles with every further attempt. */
  initialDelaySeconds: number;
  /** The longest wait, in seconds. */
  maxDelaySeconds: number;
  /** A counter with no attempt for this many seconds starts over. */
  idleSeconds: number;
}

/**
 * Reserves one attempt on the back-off counter `(scope, subject)`: allowed unless the wait
 * imposed by the previous attempts has not yet passed, in which case nothing is counted and
 * `retryAfter` says how long is left. Reserve before doing the guarded work (e.g. checking a
 * password), so that concurrent attempts cannot all slip past the count: one atomic upsert
 * counts the attempt and sets the next wait together, and only the attempts it returns a row
 * for are allowed. Forget the counter after a success with {@link forgetBackoff}.
 *
 * @example
 * const hit = await reserveWithBackoff(db, 'password:…:ada@acme.test', '1.2.3.4', policy, Date.now());
 * if (!hit.allowed) return tooMany(hit.retryAfter);
 */
export async function reserveWithBackoff(
  db: Db,
  scope: string,
  subject: string,
  policy: BackoffPolicy,
  now: number,
): Promise<RateLimitHit> {
  const nowSeconds = Math.floor(now / 1000);
  const initial = Math.min(policy.initialDelaySeconds, policy.maxDelaySeconds);
  // The wait after a first attempt: none unless not even one attempt is free.
  const firstDelay = policy.freeAttempts <= 1 ? initial : 0;
  const [reserved] = await backoffReserved(db, {
    scope,
    subject,
    nowSeconds,
    staleBefore: nowSeconds - policy.idleSeconds,
    initial,
    firstDelay,
    blockedUntil: nowSeconds + firstDelay,
    freeAttempts: policy.freeAttempts,
    maxDelay: policy.maxDelaySeconds,
  });
  if (reserved) return { allowed: true, retryAfter: 0 };
  const [row] = await backoffBlockedUntil(db, { scope, subject });
  return {
    allowed: false,
    retryAfter: Math.max(1, Number(row?.blocked_until ?? nowSeconds) - nowSeconds),
  };
}

// Every password guess reserves one: built once (see `preparedQuery`).
const backoffReserved = preparedQuery(
  (
    db,
    p: {
      scope: string;
      subject: string;
      nowSeconds: number;
      staleBefore: number;
      initial: number;
      firstDelay: number;
      blockedUntil: number;
      freeAttempts: number;
      maxDelay: number;
    },
  ) => {
    // SET expressions read the old row, so each one restates the rule on the stored values.
    const stale = sql<boolean>`rate_limit_backoffs.last_attempt <= ${p.staleBefore}`;
    const nextDelay = sql<number>`CASE
    WHEN ${stale} THEN ${p.firstDelay}
    WHEN rate_limit_backoffs.attempts + 1 < ${p.freeAttempts} THEN 0
    WHEN rate_limit_backoffs.delay_seconds = 0 THEN ${p.initial}
    WHEN rate_limit_backoffs.delay_seconds * 2 > ${p.maxDelay} THEN ${p.maxDelay}
    ELSE rate_limit_backoffs.delay_seconds * 2 END`;
    return db
      .insertInto('rate_limit_backoffs')
      .values({
        scope: p.scope,
        subject: p.subject,
        attempts: 1,
        delay_seconds: p.firstDelay,
        blocked_until: p.blockedUntil,
        last_attempt: p.nowSeconds,
      })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'subject'])
          .doUpdateSet({
            attempts: sql<number>`CASE WHEN ${stale} THEN 1 ELSE rate_limit_backoffs.attempts + 1 END`,
            delay_seconds: nextDelay,
            blocked_until: sql<number>`${p.nowSeconds} + ${nextDelay}`,
            last_attempt: p.nowSeconds,
          })
          // A counter still waiting is left as it is: a refused attempt does not lengthen the wait.
          .where((eb) =>
            eb.or([
              eb('rate_limit_backoffs.blocked_until', '<=', p.nowSeconds),
              eb('rate_limit_backoffs.last_attempt', '<=', p.staleBefore),
            ]),
          ),
      )
      .returning(['attempts']);
  },
);
const backoffBlockedUntil = preparedQuery((db, p: { scope: string; subject: string }) =>
  db
    .selectFrom('rate_limit_backoffs')
    .select('blocked_until')
    .where('scope', '=', p.scope)
    .where('subject', '=', p.subject),
);
const backoffForgotten = preparedQuery((db, p: { scope: string; subject: string }) =>
  db
    .deleteFrom('rate_limit_backoffs')
    .where('scope', '=', p.scope)
    .where('subject', '=', p.subject),
);

/**
 * Forgets the back-off counter of one subject of `scope`, or of all its subjects.
 *
 * @example
 * await forgetBackoff(db, 'password:…:ada@acme.test', '1.2.3.4');
 */
export async function forgetBackoff(db: Db, scope: string, subject?: string): Promise<void> {
  if (subject !== undefined) {
    await backoffForgotten(db, { scope, subject });
    return;
  }
  await db.deleteFrom('rate_limit_backoffs').where('scope', '=', scope).execute();
}
