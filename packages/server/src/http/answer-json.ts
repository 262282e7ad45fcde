/**
 * The JSON of every answer: `JSON.stringify`'s text, except that a remembered read inside (deeply
 * frozen, `store/read-cache.ts`) is serialized once and its text reused, as a remembered
 * session's member and organization are by every check that answers them.
 */
import { isDeeplyFrozen } from '../store/read-cache.js';

/** The JSON text of deeply frozen objects: they cannot change, so neither can their text. */
const frozenJson = new WeakMap<object, string>();

/** How deep plain objects are walked for frozen parts: the envelope `{data: {member, …}}`. */
const WALK_DEPTH = 2;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}

function jsonOf(value: unknown, depth: number): string | undefined {
  if (typeof value === 'object' && value !== null && isDeeplyFrozen(value)) {
    let json = frozenJson.get(value);
    if (json === undefined) {
      json = JSON.stringify(value);
      frozenJson.set(value, json);
    }
    return json;
  }
  if (depth === 0 || !isPlainObject(value)) return JSON.stringify(value);
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    // As JSON.stringify does, a property whose value has no JSON (undefined, a function) is left out.
    const json = jsonOf(value[key], depth - 1);
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Fastify's reply serializer: the same text as `JSON.stringify(payload)`, with the text of deeply
 * frozen objects in the envelope's first two levels reused from their first serialization.
 *
 * @example
 * app.setReplySerializer(answerJson);
 */
export function answerJson(payload: unknown): string {
  // Fastify serializes only objects and arrays here, whose JSON is never undefined.
  return jsonOf(payload, WALK_DEPTH) ?? 'null';
}
