/** The success envelope `{data: {...}}` with `request_id` and `status_code` (docs/protocol.md §3). */
import type { FastifyRequest } from 'fastify';
import { envelopedData } from './answer-json.js';

/**
 * Wraps result data in the envelope.
 *
 * @example
 * return ok(request, { organization });
 */
export function ok<T extends object>(
  request: FastifyRequest,
  data: T,
): { data: T & { request_id: string; status_code: 200 } } {
  return { data: envelopedData(data, request.id) };
}
