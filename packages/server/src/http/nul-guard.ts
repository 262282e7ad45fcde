/**
 * Refuses text holding U+0000 anywhere in a request: in the path, the query or the JSON body.
 * PostgreSQL cannot store the character in text columns, so such a value would fail deep inside
 * a query; no identifier, address or name has a use for it. Answered 400 `invalid_request`.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import { routeOf } from './route-of.js';

const NUL = '\u0000';
/** How JSON writes U+0000: the only way it can appear in a JSON text. */
const NUL_ESCAPE = '\\u0000';

/** Whether any string in a parsed JSON value holds NUL (iteratively: bodies may nest deeply). */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes(NUL)) return true;
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes(NUL)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** The error a request holding NUL is refused with (400 `invalid_request`). */
export function nulRefused(): ApiError {
  return new ApiError('invalid_request', 'Text may not contain the NUL character (U+0000).');
}

/** The check of a request's path and query: the error to refuse it with, or undefined. */
export type UrlNulCheck = (request: FastifyRequest) => ApiError | undefined;

/** The check of a parsed JSON body, given its text: the error to refuse it with, or undefined. */
export type JsonNulCheck = (
  request: FastifyRequest,
  text: string,
  value: unknown,
) => ApiError | undefined;

/**
 * The NUL checks of a request, for every route but `except` (telemetry, whose batches are never
 * refused whole: its own checks drop the items that hold NUL). `url` checks the path and query;
 * `installRequestHook` runs it first in its one `onRequest` hook (before CORS looks up the project
 * a path names). `json` checks a JSON body as it is parsed, given its text and its value: JSON
 * can hold U+0000 only as the escape `\u0000` (the bare character is not valid JSON), so only a
 * body whose text holds that escape is searched, and no request pays a hook for the check.
 *
 * @example
 * const nul = nulChecks([ENDPOINTS.events.path]);
 */
export function nulChecks(except: readonly string[] = []): {
  url: UrlNulCheck;
  json: JsonNulCheck;
} {
  const exempt = (request: FastifyRequest) => except.includes(routeOf(request).url ?? '');
  return {
    url: (request) => {
      const url = request.raw.url ?? '';
      return (/%00/i.test(url) || url.includes(NUL)) && !exempt(request) ? nulRefused() : undefined;
    },
    json: (request, text, value) =>
      text.includes(NUL_ESCAPE) && !exempt(request) && holdsNul(value) ? nulRefused() : undefined,
  };
}
