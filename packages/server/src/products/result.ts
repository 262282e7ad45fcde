/** Expected failures as values: services return a `Failure` instead of throwing (STYLE.md §4). */
import type { ErrorType } from '@gatehouse/protocol';

/** An expected failure, named by its wire `error_type`, with a message for the caller. */
export interface Failure {
  readonly failure: ErrorType;
  readonly message: string;
}

/** Builds a failure value. */
export function fail(failure: ErrorType, message: string): Failure {
  return { failure, message };
}

/** Whether a service result is a failure. */
export function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && 'failure' in value && 'message' in value;
}
