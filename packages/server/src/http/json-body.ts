/**
 * Request bodies as JSON, with a bound on nesting. `JSON.parse` takes any depth, and a body of
 * 100,000 nested arrays (200 KB, well under the size limit) costs it a tenth of a second of the
 * one thread every request shares. The requests of the API nest a handful of levels, so a body
 * nested deeper than `MAX_JSON_DEPTH` is refused after one linear scan, before it is parsed.
 */

/** The deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * What a route may set about its body beside its size limit (kept in the route's `config`):
 * a deeper nesting, for a route that takes any JSON and must answer it all the same.
 */
export interface BodyOptions {
  maxJsonDepth?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    maxJsonDepth?: number;
  }
}

/** A body's parsed value, or why it was refused. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses a request body; an empty body is no body. */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): ParsedBody {
  if (text.trim() === '') return { ok: true, value: undefined };
  if (nestsDeeperThan(text, maxDepth)) {
    return { ok: false, message: `is nested deeper than ${maxDepth} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: 'is not valid JSON' };
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** Whether the brackets of `text`, outside its strings, nest deeper than `max`. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) {
      depth--;
    }
  }
  return false;
}
