/** Expected failures as values: services return a `Failure` instead of throwing (docs/contributing.md, habit 4). */
import type { ErrorType } from '@gatehouse/protocol';
import type { Db } from './context.js';
import { transaction } from './store/transaction.js';

/** An expected failure, named by its wire `error_type`, with a message for the caller. */
export interface Failure {
  readonly failure: ErrorType;
  readonly message: string;
  /** For `too_many_requests`: seconds until a retry may succeed, sent as `Retry-After`. */
  readonly retryAfter?: number;
}

/** Builds a failure value; `retryAfter` (seconds) only for `too_many_requests`. */
export function fail(failure: ErrorType, message: string, retryAfter?: number): Failure {
  return retryAfter === undefined ? { failure, message } : { failure, message, retryAfter };
}

/** Whether a service result is a failure. */
export function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && 'failure' in value && 'message' in value;
}

/** Carries a failure out of a transaction callback so that the transaction rolls back. */
class RolledBack extends Error {
  constructor(readonly result: Failure) {
    super(result.message);
  }
}

/**
 * Runs `work` in a transaction that a returned failure rolls back: nothing it wrote before
 * refusing (an organization, a member, a spent link, a new password) outlives the refusal.
 * Use it where a step can fail after earlier writes, e.g. an IST lost to a concurrent call.
 *
 * @example
 * return allOrNothing(ctx.db, async (trx) => {
 *   const org = await createOrganization(trx, ...);
 *   return completeAuthentication(ctx, trx, { ...input, organization: org });
 * });
 */
export async function allOrNothing<T>(
  db: Db,
  work: (trx: Db) => Promise<T | Failure>,
): Promise<T | Failure> {
  try {
    return await transaction(db, async (trx) => {
      const result = await work(trx);
      if (isFailure(result)) throw new RolledBack(result);
      return result;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result;
    throw error;
  }
}
