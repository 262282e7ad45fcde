/** The JSON transport to `{sdkBase}/sdk/v1`: headers, the `{data}` envelope and error classification. */
import {
  SDK_PREFIX,
  type ErrorType,
  type SchemaIssue,
  type TelemetryHeader,
} from '@gatehouse/protocol';
import {
  GatehouseAPIError,
  GatehouseAPISchemaError,
  GatehouseAPIUnreachableError,
} from './errors.js';
import { base64Utf8 } from './encoding.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TransportOptions {
  publicToken: string;
  /** Origin (plus optional path prefix) that serves `/sdk/v1`. */
  sdkBase: string;
  /** Read at call time: the session token from its cookie, or null when signed out. */
  getSessionToken(): string | null;
  /** A fresh `X-SDK-Client` value for each request. */
  telemetryHeader(): TelemetryHeader;
}

export interface Transport {
  /** Sends one SDK call and resolves with the envelope's `data`. */
  request<T>(method: HttpMethod, path: string, body?: object): Promise<T>;
  /** Posts a telemetry batch (no Authorization); the reply is ignored by callers. */
  postEvents(items: unknown[]): Promise<void>;
}

/** Builds the transport; `fetch` is looked up at call time so hosts may patch it. */
export function createTransport(options: TransportOptions): Transport {
  const url = (path: string) => `${options.sdkBase}${SDK_PREFIX}${path}`;

  const headers = (): Record<string, string> => {
    // The JWT and IST never travel in headers: only the opaque session token, or the public
    // token again for anonymous calls (docs/protocol.md §2).
    const secret = options.getSessionToken() ?? options.publicToken;
    return {
      Authorization: `Basic ${base64Utf8(`${options.publicToken}:${secret}`)}`,
      'Content-Type': 'application/json',
      'X-SDK-Parent-Host': window.location.origin,
      'X-SDK-Client': base64Utf8(JSON.stringify(options.telemetryHeader())),
    };
  };

  return {
    async request<T>(method: HttpMethod, path: string, body?: object): Promise<T> {
      let response: Response;
      try {
        response = await fetch(url(path), {
          method,
          headers: headers(),
          credentials: 'same-origin',
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch (error) {
        throw new GatehouseAPIUnreachableError(`${method} ${path}: ${describe(error)}`);
      }
      return readResponse<T>(response, `${method} ${path}`);
    },

    async postEvents(items: unknown[]): Promise<void> {
      await fetch(url('/events'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(items),
        keepalive: true,
      });
    },
  };
}

/** Classifies a response exactly as docs/protocol.md §3 says the published client does. */
async function readResponse<T>(response: Response, what: string): Promise<T> {
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  if (response.status <= 299) {
    if (response.status === 204 || !isJson) {
      throw new GatehouseAPIUnreachableError(`${what}: success without a JSON body.`);
    }
    const json = await parseJson(response, what);
    return (isRecord(json) ? json.data : undefined) as T;
  }
  if (!isJson) {
    throw new GatehouseAPIUnreachableError(`${what}: HTTP ${response.status} without a JSON body.`);
  }
  const json = await parseJson(response, what);
  if (!isRecord(json)) {
    throw new GatehouseAPIUnreachableError(
      `${what}: HTTP ${response.status} with a non-object body.`,
    );
  }
  if ('body' in json || 'params' in json || 'query' in json) {
    const issues = Array.isArray(json.body) ? json.body.filter(isSchemaIssue) : [];
    const errorType =
      typeof json.error_type === 'string' ? errorTypeOf(json.error_type) : undefined;
    throw new GatehouseAPISchemaError(issues, errorType);
  }
  throw new GatehouseAPIError({
    status_code: typeof json.status_code === 'number' ? json.status_code : response.status,
    error_type: errorTypeOf(json.error_type),
    error_message: text(json.error_message),
    error_url: text(json.error_url),
    request_id: text(json.request_id),
  });
}

async function parseJson(response: Response, what: string): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch (error) {
    throw new GatehouseAPIUnreachableError(`${what}: unparsable JSON (${describe(error)}).`);
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The `error_type` as the server sent it. Typed as the closed set so that the client's and the
 * host's comparisons are checked; not narrowed at run time, so that a type added by a newer server
 * reaches the caller unchanged rather than being replaced (docs/protocol.md §3).
 */
function errorTypeOf(value: unknown): ErrorType {
  return text(value) as ErrorType;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchemaIssue(value: unknown): value is SchemaIssue {
  return isRecord(value) && typeof value.dataPath === 'string' && typeof value.message === 'string';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
