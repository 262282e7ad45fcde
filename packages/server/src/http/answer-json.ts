/**
 * The JSON of every answer: `JSON.stringify`'s text, except that a remembered read inside (deeply
 * frozen, `store/read-cache.ts`) is serialized once and its text reused, as a remembered
 * session's member and organization are by every check that answers them, and a whole remembered
 * result by every check that answers it unchanged.
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

/** The JSON text of a frozen object without its closing brace, for fields to follow. */
const frozenOpenJson = new WeakMap<object, string>();

/**
 * An enveloped answer made of a remembered (deeply frozen) result and a request id: the result's
 * fields, then `request_id` and `status_code`, as `envelopedData` answers any result. Its private
 * field names the frozen result, whose text {@link answerJson} writes once and reuses; a copy of
 * it (a spread, with fields added or changed) is a plain object, written field by field; the
 * envelope itself is frozen, so its fields cannot drift from that text. Marked
 * this way rather than in a `WeakMap`: an entry per answer would cost every garbage collection.
 */
class FrozenEnvelope {
  readonly #result: object;

  constructor(result: object, requestId: string) {
    Object.assign(this, result);
    const fields = this as Record<string, unknown>;
    fields.request_id = requestId;
    fields.status_code = 200;
    this.#result = result;
    // Its text is the result's: no field may change after it.
    Object.freeze(this);
  }

  /** The frozen result of an envelope made by `envelopedData`, else undefined. */
  static resultOf(value: object): object | undefined {
    return #result in value ? value.#result : undefined;
  }
}

/**
 * The envelope's data: a handler's result with the request id and status code after its fields
 * (docs/protocol.md §3). When the result is a remembered one (deeply frozen), its text is written
 * once and each answer adds only the request id to it.
 *
 * @example
 * return { data: envelopedData(result, request.id) };
 */
export function envelopedData<T extends object>(
  data: T,
  requestId: string,
): T & { request_id: string; status_code: 200 } {
  type Enveloped = T & { request_id: string; status_code: 200 };
  if (
    isDeeplyFrozen(data) &&
    isPlainObject(data) &&
    !('request_id' in data) &&
    !('status_code' in data)
  ) {
    return new FrozenEnvelope(data, requestId) as unknown as Enveloped;
  }
  return { ...data, request_id: requestId, status_code: 200 as const };
}

function frozenJsonOf(value: object): string {
  let json = frozenJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    frozenJson.set(value, json);
  }
  return json;
}

/** A frozen answer's text with the request id: `{…fields,"request_id":…,"status_code":200}`. */
function withRequestJson(source: object, requestId: string): string {
  let open = frozenOpenJson.get(source);
  if (open === undefined) {
    const json = frozenJsonOf(source);
    // `{}` has no field for the others to follow.
    open = json === '{}' ? '{' : `${json.slice(0, -1)},`;
    frozenOpenJson.set(source, open);
  }
  return `${open}"request_id":${JSON.stringify(requestId)},"status_code":200}`;
}

function jsonOf(value: unknown, depth: number): string | undefined {
  if (typeof value === 'object' && value !== null) {
    if (isDeeplyFrozen(value)) return frozenJsonOf(value);
    const result = FrozenEnvelope.resultOf(value);
    if (result !== undefined) {
      return withRequestJson(result, (value as { request_id: string }).request_id);
    }
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
