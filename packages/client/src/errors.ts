/** The client's closed set of error classes and the rule that decides when a session is dead. */
import { UNRECOVERABLE_ERROR_TYPES, type ErrorType, type SchemaIssue } from '@gatehouse/protocol';

/**
 * Base class of every error the client throws or rejects with.
 *
 * @example
 * try { await client.session.authenticate(); } catch (e) { if (e instanceof GatehouseError) … }
 */
export class GatehouseError extends Error {
  override name = 'GatehouseError';
}

/** The flat error body the server sends with every non-2xx JSON response (docs/protocol.md §3). */
export interface GatehouseAPIErrorFields {
  status_code: number;
  /**
   * One of the closed set, so comparing with a misspelt type does not compile. The value is kept
   * exactly as the server sent it: a type from a newer server that this client does not know
   * matches none of the checks and is handled like any other failure (docs/protocol.md §3).
   */
  error_type: ErrorType;
  error_message: string;
  error_url: string;
  request_id: string;
}

/**
 * The server answered with an error (`status_code > 299`, JSON, no schema keys).
 *
 * @example
 * if (e instanceof GatehouseAPIError && e.error_type === 'organization_not_found') …
 */
export class GatehouseAPIError extends GatehouseError implements GatehouseAPIErrorFields {
  override name = 'GatehouseAPIError';
  readonly status_code: number;
  readonly error_type: ErrorType;
  readonly error_message: string;
  readonly error_url: string;
  readonly request_id: string;

  constructor(fields: GatehouseAPIErrorFields) {
    super(
      `[${fields.status_code}] ${fields.error_type}\n${fields.error_message}` +
        (fields.error_url ? `\nSee ${fields.error_url} for more information.` : '') +
        (fields.request_id ? `\nrequest_id: ${fields.request_id}` : ''),
    );
    this.status_code = fields.status_code;
    this.error_type = fields.error_type;
    this.error_message = fields.error_message;
    this.error_url = fields.error_url;
    this.request_id = fields.request_id;
  }
}

/**
 * The server rejected the request's shape: the error object had a top-level `body`, `params` or
 * `query` key. The message lists one `{dataPath}: {message}` line per `body` issue.
 *
 * @example
 * if (e instanceof GatehouseAPISchemaError) console.log(e.body.map((i) => i.dataPath));
 */
export class GatehouseAPISchemaError extends GatehouseError {
  override name = 'GatehouseAPISchemaError';
  /** The wire `error_type` when the server sent one (`invalid_request` for Gatehouse). */
  readonly error_type: ErrorType | undefined;
  readonly body: SchemaIssue[];

  constructor(body: SchemaIssue[], errorType?: ErrorType) {
    super(
      [
        'Request does not match expected schema',
        ...body.map((i) => `${i.dataPath}: ${i.message}`),
      ].join('\n'),
    );
    this.body = body;
    this.error_type = errorType;
  }
}

/**
 * No usable answer: network or CORS failure, a non-JSON or unparsable response, or a 204.
 *
 * @example
 * if (e instanceof GatehouseAPIUnreachableError) showOfflineBanner();
 */
export class GatehouseAPIUnreachableError extends GatehouseError {
  override name = 'GatehouseAPIUnreachableError';

  constructor(details: string) {
    super(`Unable to contact the Gatehouse servers. ${details}`);
  }
}

/**
 * The project has captcha on and no token could be had: the provider's script did not load, or
 * the challenge failed or timed out. Nothing was sent to the server.
 *
 * @example
 * if (e instanceof GatehouseCaptchaError) showToast('The captcha could not be completed.');
 */
export class GatehouseCaptchaError extends GatehouseError {
  override name = 'GatehouseCaptchaError';

  constructor(details: string) {
    super(`The captcha could not be completed. ${details}`);
  }
}

/**
 * The caller misused the API (missing or mistyped argument, no browser). Raised before any request.
 *
 * @example
 * await client.magicLinks.authenticate({} as never); // rejects with GatehouseUsageError
 */
export class GatehouseUsageError extends GatehouseError {
  override name = 'GatehouseUsageError';
}

/**
 * Whether an error means the local session is dead and must be destroyed (docs/protocol.md §3).
 *
 * @example
 * if (isUnrecoverableError(e)) redirectToLogin();
 */
export function isUnrecoverableError(error: unknown): boolean {
  return error instanceof GatehouseAPIError && UNRECOVERABLE_ERROR_TYPES.has(error.error_type);
}
