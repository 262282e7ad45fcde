/** Expected failures as values: services return a `Failure` instead of throwing (docs/contributing.md, habit 4). */
import type { ErrorType } from '@gatehouse/protocol';
import type { z } from 'zod';
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
 * Use it whenever `work` can return a failure, e.g. an IST lost to a concurrent call after the
 * organization was created. Only where a failure must still commit a write (an attempt counter,
 * a lockout, a spent code) is the transaction opened with `transaction()` from
 * store/transaction.ts instead (docs/contributing.md, "Transactions"). Work queued with
 * `afterCommit` runs once it commits, as with `transaction()`.
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

// Zod's default messages name types in its own words; these read like the wire's messages.
export const wireMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'invalid_type') return `must be of type ${issue.expected}`;
  return undefined;
};

/**
 * Checks a service's input against the endpoint table's schema for it: the parsed value, or an
 * `invalid_request` failure naming each problem (`roles.0.role_id: must be …`). Services that the
 * management API, the CLI and the in-process admin share call it, so a value the HTTP edge would
 * refuse is refused on every path with the same `error_type`.
 *
 * @example
 * const checked = checkInput(captchaSettingsFields, input);
 * if (isFailure(checked)) return checked;
 */
export function checkInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> | Failure {
  const result = schema.safeParse(input === undefined ? {} : input, { error: wireMessage });
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || '(top)'}: ${issue.message}`,
  );
  return fail('invalid_request', problems.join('; '));
}
