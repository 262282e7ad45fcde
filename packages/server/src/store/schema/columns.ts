// The column types the table modules share, and the type of their runtime column lists: a table's
// interface vanishes at run time, so each table also lists its columns as a value the compiler
// holds to the interface and store/migrations.test.ts holds to a freshly migrated database.
import type { SelectType } from 'kysely';

/** Timestamps are RFC 3339 UTC strings of fixed width, so they compare correctly as text. */
export type Timestamp = string;
/** Booleans are stored as 0/1 integers, which SQLite and PostgreSQL both read back as numbers. */
export type Flag = number;
/** JSON documents are stored as text and parsed by the service that owns them. */
export type Json = string;

/** The portable SQL types the migrations use. */
type SqlType = 'text' | 'integer' | 'double precision';

/** A column as the migrations create it: its SQL type, then `not null` unless it may be null. */
export type ColumnSql = SqlType | `${SqlType} not null`;

/** The SQL a column of TypeScript type `T` may have: text for strings, a number type for numbers. */
type ColumnSqlOf<T> =
  NonNullable<SelectType<T>> extends string
    ? 'text' | 'text not null'
    : NonNullable<SelectType<T>> extends number
      ? Exclude<ColumnSql, 'text' | 'text not null'>
      : never;

/**
 * Every column of a table with its SQL, as a value. Written `{…} satisfies Columns<XTable>`, the
 * list must name exactly the interface's columns (a `Record<keyof XTable, ColumnSql>`), each with
 * a type that fits the interface's.
 *
 * @example
 * const rateLimitsColumns = {
 *   key: 'text not null',
 *   window_start: 'integer not null',
 *   count: 'integer not null',
 * } satisfies Columns<RateLimitsTable>;
 */
export type Columns<Table> = { readonly [Column in keyof Table]-?: ColumnSqlOf<Table[Column]> };

/** The column lists of a group of tables, one per table name of `Tables`. */
export type TableColumns<Tables> = { readonly [Name in keyof Tables]-?: Columns<Tables[Name]> };
