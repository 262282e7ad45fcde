/**
 * Search cursors: where the last page ended, opaque to the caller and signed, so that a cursor is
 * accepted only by the project and the search it came from. A cursor carries the key of the last
 * row (`created_at`, `id`), not an offset, so rows added between pages neither repeat nor hide a
 * row.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Context } from '../../context.js';
import type { PageKey } from './store-search.js';

/** The key cursors are signed with, derived once per server from its key. */
const keys = new WeakMap<Context, Buffer>();

function cursorKey(ctx: Context): Buffer {
  let key = keys.get(ctx);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', ctx.otpKey, Buffer.alloc(0), 'gatehouse:cursors', 32));
    keys.set(ctx, key);
  }
  return key;
}

/** What a cursor is bound to: the project, the kind of search and its conditions. */
export interface CursorScope {
  projectId: string;
  search: 'organizations' | 'members';
  /** The search's conditions (and organizations), as JSON-able data. */
  conditions: unknown;
}

function mac(ctx: Context, scope: CursorScope, payload: string): Buffer {
  return createHmac('sha256', cursorKey(ctx))
    .update(JSON.stringify([scope.projectId, scope.search, scope.conditions, payload]))
    .digest()
    .subarray(0, 16);
}

const PART = /^[A-Za-z0-9_-]{1,600}$/;

/**
 * The cursor of the page after `key`.
 *
 * @example
 * const next = page.next && encodeCursor(ctx, scope, page.next);
 */
export function encodeCursor(ctx: Context, scope: CursorScope, key: PageKey): string {
  const payload = Buffer.from(JSON.stringify([key.created_at, key.id])).toString('base64url');
  return `${payload}.${mac(ctx, scope, payload).toString('base64url')}`;
}

/**
 * The key a cursor names, or null when it is not a cursor this server issued for this search:
 * made up, altered, truncated, or from another project or other conditions.
 */
export function decodeCursor(ctx: Context, scope: CursorScope, cursor: string): PageKey | null {
  const [payload, signature, extra] = cursor.split('.');
  if (extra !== undefined || !payload || !signature) return null;
  if (!PART.test(payload) || !PART.test(signature)) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(ctx, scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  // Signed by this server, so well formed; checked anyway, as everything read from a request.
  if (!Array.isArray(key) || key.length !== 2) return null;
  const [createdAt, id] = key as unknown[];
  if (typeof createdAt !== 'string' || createdAt.length > 64) return null;
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) return null;
  return { created_at: createdAt, id };
}
