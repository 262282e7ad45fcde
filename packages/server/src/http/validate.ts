/** Request validation with zod, reporting problems as `{dataPath, message}` schema issues. */
import type { SchemaIssue } from '@gatehouse/protocol';
import type { z } from 'zod';
import { wireMessage } from '../result.js';
import { schemaError } from './errors.js';

/** Converts zod issues to the wire's `{dataPath, message}` list (`dataPath` like `.email_address`). */
export function toSchemaIssues(error: z.ZodError): SchemaIssue[] {
  return error.issues.map((issue) => ({
    dataPath: issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join(''),
    message: issue.message,
  }));
}

/**
 * Parses a request body, throwing a 400 schema error when it does not match. A missing body is
 * read as `{}` so that "field is required" is reported rather than "expected object".
 *
 * @example
 * const body = parseBody(SearchBody, request.body);
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const input = body === undefined ? {} : body;
  // The commonest body of all, `{}` (every session check), answered as the schema answered it.
  if (isEmptyObject(input) && readsEmptyAsEmpty(schema)) return {} as z.output<T>;
  const result = schema.safeParse(input, { error: wireMessage });
  if (!result.success) throw schemaError(toSchemaIssues(result.error));
  return result.data;
}

/** Whether a value is `{}`: a plain object without fields. */
function isEmptyObject(value: unknown): value is Record<string, never> {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** Schemas by whether they accept `{}` and answer a `{}` of their own: no defaults, no transform. */
const emptyAsEmpty = new WeakMap<z.ZodType, boolean>();

function readsEmptyAsEmpty(schema: z.ZodType): boolean {
  let answer = emptyAsEmpty.get(schema);
  if (answer === undefined) {
    const result = schema.safeParse({});
    answer = result.success && isEmptyObject(result.data);
    emptyAsEmpty.set(schema, answer);
  }
  return answer;
}
