/** The one API error class and the flat JSON error body of docs/protocol.md §3. */
import {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorType,
  type SchemaIssue,
} from '@gatehouse/protocol';
import { isFailure, type Failure } from '../result.js';

/**
 * An error answered to the caller. Services return expected failures as values; routes turn them
 * into an `ApiError`, and the error handler renders it.
 *
 * @example
 * throw new ApiError('organization_not_found', 'No organization has this id.');
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly errorType: ErrorType,
    message: string,
    readonly issues?: SchemaIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[errorType];
  }
}

/**
 * A 400 `invalid_request` schema error listing what is wrong with the body.
 *
 * @example
 * throw schemaError([{ dataPath: '.email_address', message: 'is required' }]);
 */
export function schemaError(issues: SchemaIssue[]): ApiError {
  return new ApiError('invalid_request', 'Request does not match expected schema', issues);
}

/** Renders an error as the flat body, with `body` only on schema errors. */
export function errorBody(error: ApiError, requestId: string, docsBase: string): ErrorBody {
  const body: ErrorBody = {
    status_code: error.status,
    request_id: requestId,
    error_type: error.errorType,
    error_message: error.message,
    error_url: `${docsBase}/errors#${error.errorType}`,
  };
  if (error.errorType === 'invalid_request') body.body = error.issues ?? [];
  return body;
}

/**
 * Returns a service result, or throws the `ApiError` its failure names.
 *
 * @example
 * const outcome = unwrap(await authenticateMagicLink(ctx, project, body, session));
 */
export function unwrap<T>(result: T | Failure): T {
  if (isFailure(result)) {
    const headers =
      result.retryAfter === undefined ? undefined : { 'Retry-After': String(result.retryAfter) };
    throw new ApiError(result.failure, result.message, undefined, headers);
  }
  return result;
}
