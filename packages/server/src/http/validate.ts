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
  const result = schema.safeParse(body === undefined ? {} : body, { error: wireMessage });
  if (!result.success) throw schemaError(toSchemaIssues(result.error));
  return result.data;
}
