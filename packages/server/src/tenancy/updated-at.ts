/**
 * Optimistic concurrency for edits made from a loaded screen (docs/protocol.md §7.10): a change
 * may name the `updated_at` it was based on, and is refused with 409 `stale_update` when the
 * stored one has moved since. Every change moves `updated_at` strictly forward, so two changes
 * within one millisecond still leave different values behind.
 */
import { isoAt } from '../context.js';
import { fail, type Failure } from '../result.js';

/** The stored `updated_at` is not the one the caller's change was based on. */
export const staleUpdate = (what: 'organization' | 'member' | 'connection'): Failure =>
  fail(
    'stale_update',
    `The ${what} was changed by someone else since it was loaded (its updated_at differs); nothing was changed. Load it again and retry.`,
  );

/** How many times a change without a precondition re-reads a row a concurrent change moved. */
const ATTEMPTS = 5;

/** The next `updated_at` after `previous`: now, or a millisecond later when now is not later. */
export function nextUpdatedAt(previous: string, now: number): string {
  const last = Date.parse(previous);
  return isoAt(Number.isNaN(last) ? now : Math.max(now, last + 1));
}

/** Reads a row's `updated_at` (null when the row is gone) and moves it, conditionally. */
export interface VersionedRow {
  read(): Promise<string | null>;
  /** Sets `updated_at` to `to` where it still is `from`; false when it no longer is. */
  advance(from: string, to: string): Promise<boolean>;
}

/**
 * Claims the right to change a row inside the caller's transaction: checks the precondition
 * (`expected`, when given) and moves `updated_at` forward with a conditional update, which also
 * locks the row until the transaction ends. Returns the new `updated_at` the change must write,
 * null when the row is gone, or `stale_update`.
 *
 * @example
 * const version = await claimUpdate(row, body.updated_at, ctx.now(), 'member');
 * if (version === null) return memberNotFound();
 * if (typeof version !== 'string') return version;
 */
export async function claimUpdate(
  row: VersionedRow,
  expected: string | undefined,
  now: number,
  what: 'organization' | 'member',
): Promise<string | null | Failure> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await row.read();
    if (current === null) return null;
    if (expected !== undefined && current !== expected) return staleUpdate(what);
    const next = nextUpdatedAt(current, now);
    if (await row.advance(current, next)) return next;
    // A concurrent change committed between the read and the update: with a precondition the
    // caller's screen is stale; without one, the change applies on top of the newer row.
    if (expected !== undefined) return staleUpdate(what);
  }
  return staleUpdate(what);
}
