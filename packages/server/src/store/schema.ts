/**
 * The Gatehouse database as Kysely sees it (portable column types only), its handle and
 * timestamps. The tables are declared per area in `schema/`, each with its runtime column list;
 * store/migrations.test.ts checks those lists against a freshly migrated database.
 */
import type { Kysely } from 'kysely';
import type { TableColumns } from './schema/columns.js';
import { CREDENTIAL_COLUMNS, type CredentialTables } from './schema/credentials.js';
import { FEDERATION_COLUMNS, type FederationTables } from './schema/federation.js';
import { OPERATIONS_COLUMNS, type OperationsTables } from './schema/operations.js';
import { SESSION_COLUMNS, type SessionTables } from './schema/sessions.js';
import { TENANCY_COLUMNS, type TenancyTables } from './schema/tenancy.js';

export type * from './schema/credentials.js';
export type * from './schema/federation.js';
export type * from './schema/operations.js';
export type * from './schema/sessions.js';
export type * from './schema/tenancy.js';

/** The whole database, as Kysely sees it: every table of every area. */
export interface Database
  extends TenancyTables, SessionTables, CredentialTables, FederationTables, OperationsTables {}

/**
 * Every table's columns as the migrations create them, by table name: the run-time image of
 * `Database`.
 *
 * @example
 * TABLE_COLUMNS.rate_limits.window_start; // 'integer not null'
 */
export const TABLE_COLUMNS = {
  ...TENANCY_COLUMNS,
  ...SESSION_COLUMNS,
  ...CREDENTIAL_COLUMNS,
  ...FEDERATION_COLUMNS,
  ...OPERATIONS_COLUMNS,
} satisfies TableColumns<Database>;

/** A database handle or an open transaction: services accept either. */
export type Db = Kysely<Database>;

/** The last time {@link isoAt} printed (NaN at first: it equals nothing). */
let lastIso = { ms: Number.NaN, text: '' };

/**
 * A time as stored and sent: an RFC 3339 UTC string of fixed width (see `Timestamp` in schema/columns.ts).
 *
 * @example
 * isoAt(0); // '1970-01-01T00:00:00.000Z'
 */
export function isoAt(ms: number): string {
  // Every check prints its own time more than once, and checks come many to a millisecond.
  if (ms === lastIso.ms) return lastIso.text;
  const text = new Date(ms).toISOString();
  lastIso = { ms, text };
  return text;
}
