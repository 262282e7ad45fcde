/** Fixed-window counters in the `rate_limits` table, shared by every server instance. */
import { sql } from 'kysely';
import type { Db } from '../context.js';

/** The outcome of counting one hit. */
export interface RateLimitHit {
  allowed: boolean;
  /** Seconds until the current window ends. */
  retryAfter: number;
}

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
  const row = await db
    .insertInto('rate_limits')
    .values({ key: `${key}:${windowSeconds}`, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // SET expressions read the old row, so the window test sees the stored window.
        count: sql<number>`CASE WHEN rate_limits.window_start = ${windowStart} THEN rate_limits.count + 1 ELSE 1 END`,
        window_start: windowStart,
      }),
    )
    .returning(['count'])
    .executeTakeFirstOrThrow();
  return {
    allowed: Number(row.count) <= limit,
    retryAfter: Math.max(1, windowStart + windowSeconds - nowSeconds),
  };
}
