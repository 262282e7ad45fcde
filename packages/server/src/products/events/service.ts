/** Telemetry events (§7.9): bounded, reduced to the known fields, filed by public token; the rest dropped. */
import { randomUUID } from 'node:crypto';
// At most this many items of a batch are looked at (the client flushes at 15).
import { MAX_EVENTS_PER_BATCH } from '@gatehouse/protocol/endpoints';
import { isoAt, type Context } from '../../context.js';
import type { EventsTable } from '../../store/schema.js';
import { insertEvents } from './store.js';

/** Longest kept string; longer ones are cut. */
const MAX_STRING = 256;
/** Longest kept `error_description`. */
const MAX_DESCRIPTION = 1024;
/** `details` deeper than this, or larger than {@link MAX_DETAILS_CHARS} as JSON, is dropped. */
const MAX_DETAILS_DEPTH = 6;
const MAX_DETAILS_CHARS = 4096;
/** Public tokens and event names: printable ASCII only, so no database ever sees a NUL byte. */
const TOKEN_PATTERN = /^[\x21-\x7e]{1,200}$/;
const EVENT_NAME_PATTERN = /^[\x20-\x7e]{1,100}$/;

/** The `X-SDK-Client` fields an item's `telemetry` may carry (§2); nothing else is kept. */
export interface Telemetry {
  event_id?: string;
  app_session_id?: string;
  persistent_id?: string;
  client_sent_at?: string;
  timezone?: string;
  stytch_member_id?: string;
  stytch_member_session_id?: string;
  app?: { identifier?: string };
  sdk?: { identifier?: string; version?: string };
}

/** The `event` of an item (§7.9), reduced to its known fields. */
export interface TelemetryEvent {
  public_token: string;
  event_name: string;
  details: unknown;
  error_code?: string;
  error_description?: string;
  http_status_code?: number;
}

/** One item as it is stored. */
export interface TelemetryItem {
  telemetry: Telemetry;
  event: TelemetryEvent;
}

const TELEMETRY_STRINGS = [
  'event_id',
  'app_session_id',
  'persistent_id',
  'client_sent_at',
  'timezone',
  'stytch_member_id',
  'stytch_member_session_id',
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string cut to `max` characters, or undefined for anything that is not a string. */
function text(value: unknown, max = MAX_STRING): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/** Copies the defined values only, so absent fields stay absent in the stored JSON. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Whether a JSON value nests no deeper than `depth`. Walks at most `depth` levels, so an
 * adversarially deep value costs no more than a shallow one (and never the call stack).
 */
function shallowerThan(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth === 0) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.every((child) => shallowerThan(child, depth - 1));
}

/** `details` when it is small and shallow; otherwise `{}`: telemetry is a hint, not a store. */
function boundedDetails(value: unknown): unknown {
  if (value === undefined || !shallowerThan(value, MAX_DETAILS_DEPTH)) return {};
  const json = JSON.stringify(value);
  return json.length <= MAX_DETAILS_CHARS ? value : {};
}

function reduceTelemetry(value: unknown): Telemetry {
  if (!isRecord(value)) return {};
  const telemetry: Telemetry = {};
  for (const key of TELEMETRY_STRINGS) {
    const v = text(value[key]);
    if (v !== undefined) telemetry[key] = v;
  }
  if (isRecord(value.app)) telemetry.app = defined({ identifier: text(value.app.identifier) });
  if (isRecord(value.sdk)) {
    telemetry.sdk = defined({
      identifier: text(value.sdk.identifier),
      version: text(value.sdk.version),
    });
  }
  return telemetry;
}

/**
 * Reduces one received item to the known fields of §7.9, with every string and `details`
 * bounded; null for an item without a usable `public_token` and `event_name`.
 *
 * @example
 * reduceItem({ event: { public_token: 'public-token-test-…', event_name: 'x', details: {} } });
 */
export function reduceItem(item: unknown): TelemetryItem | null {
  if (!isRecord(item) || !isRecord(item.event)) return null;
  const { event } = item;
  if (typeof event.public_token !== 'string' || !TOKEN_PATTERN.test(event.public_token))
    return null;
  if (typeof event.event_name !== 'string' || !EVENT_NAME_PATTERN.test(event.event_name)) {
    return null;
  }
  const status = event.http_status_code;
  return {
    telemetry: reduceTelemetry(item.telemetry),
    event: defined({
      public_token: event.public_token,
      event_name: event.event_name,
      details: boundedDetails(event.details),
      error_code: text(event.error_code),
      error_description: text(event.error_description, MAX_DESCRIPTION),
      http_status_code:
        typeof status === 'number' && Number.isInteger(status) && status >= 0 && status <= 999
          ? status
          : undefined,
    }),
  };
}

/**
 * Stores the first {@link MAX_EVENTS_PER_BATCH} items whose public token names a project, each
 * reduced by {@link reduceItem}; malformed items and items of unknown projects are dropped.
 * Returns how many were kept.
 *
 * @example
 * await recordEvents(ctx, request.body as unknown[]);
 */
export async function recordEvents(ctx: Context, items: readonly unknown[]): Promise<number> {
  const at = isoAt(ctx.now());
  const rows: EventsTable[] = [];
  for (const received of items.slice(0, MAX_EVENTS_PER_BATCH)) {
    const item = reduceItem(received);
    if (!item) continue;
    const project = await ctx.projects.byPublicToken(item.event.public_token);
    if (!project) continue;
    rows.push({
      id: randomUUID(),
      project_id: project.id,
      event_name: item.event.event_name,
      payload: JSON.stringify(item),
      created_at: at,
    });
  }
  await insertEvents(ctx.db, rows);
  return rows.length;
}
