/**
 * Refuses text holding U+0000 anywhere in a request: in the path, the query or the JSON body.
 * PostgreSQL cannot store the character in text columns, so such a value would fail deep inside
 * a query; no identifier, address or name has a use for it. Answered 400 `invalid_request`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import { routeOf } from './route-of.js';

const NUL = '\u0000';

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

/** The URL check of a request: the error to refuse it with, or undefined. */
export type UrlCheck = (request: FastifyRequest) => ApiError | undefined;

/**
 * Installs the body check before validation, for every route but `except` (telemetry, whose
 * batches are never refused whole: its own checks drop the items that hold NUL), and returns the
 * check of the path and query, which `installRequestHook` runs first in its one `onRequest` hook
 * (before CORS looks up the project a path names).
 *
 * @example
 * const urlCheck = installNulGuard(app, [ENDPOINTS.events.path]);
 */
export function installNulGuard(app: FastifyInstance, except: readonly string[] = []): UrlCheck {
  const refused = () =>
    new ApiError('invalid_request', 'Text may not contain the NUL character (U+0000).');
  const exempt = (url: string | undefined) => except.includes(url ?? '');
  // The body once parsed.
  app.addHook('preValidation', (request, _reply, done) => {
    done(!exempt(routeOf(request).url) && holdsNul(request.body) ? refused() : undefined);
  });
  return (request) => {
    const url = request.raw.url ?? '';
    return !exempt(routeOf(request).url) && (/%00/i.test(url) || url.includes(NUL))
      ? refused()
      : undefined;
  };
}
