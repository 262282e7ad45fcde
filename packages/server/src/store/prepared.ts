/** Hot queries built and compiled once, then run with fresh parameters. */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { prepareOnServer } from './db.js';
import type { Database } from './schema.js';

/** One parameter of a compiled query: a named argument, or a constant the query was built with. */
type Slot = { name: string } | { value: unknown };

interface Template {
  compiled: CompiledQuery;
  slots: Slot[];
}

/** The values a compiled query's named parameters take at run time. */
type Params = Record<string, string | number | null>;

/**
 * A query whose parameters (strings, numbers, nulls) are bound at run time.
 *
 * Building a Kysely query (immutable nodes, frozen on every step) and compiling it to SQL costs
 * more than SQLite takes to run a short indexed lookup, so the queries on the paths every request
 * takes are built once per dialect with placeholder values and only their parameters change.
 * The SQL text is the dialect's own, so the same query serves SQLite and PostgreSQL. On
 * PostgreSQL a query that names its columns (no `selectAll()`) is also a named prepared statement
 * on each connection, parsed and planned once (`prepareOnServer`).
 *
 * @example
 * const byId = preparedQuery((db, p: { id: string }) =>
 *   db.selectFrom('members').selectAll().where('id', '=', p.id),
 * );
 * const rows = await byId(db, { id });
 */
export function preparedQuery<P extends Params, R>(
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
): (db: Kysely<Database>, params: P) => Promise<R[]> {
  // Keyed by the dialect adapter, which a database shares with its transactions.
  const templates = new WeakMap<object, Template>();
  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let template = templates.get(adapter);
    if (!template) {
      template = compileTemplate(db, build, params);
      templates.set(adapter, template);
    }
    const parameters = template.slots.map((slot) =>
      'name' in slot ? params[slot.name] : slot.value,
    );
    const result = await db.executeQuery<R>({ ...template.compiled, parameters });
    return result.rows;
  };
}

function compileTemplate<P extends Params, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
  params: P,
): Template {
  // Placeholders no caller could send (NUL-delimited), so every match is one of ours. A number's
  // placeholder is a string too: the query only passes it on, and its value is bound at run time.
  const byPlaceholder = new Map<string, string>();
  const placeholders: Record<string, string> = {};
  for (const name of Object.keys(params)) {
    const placeholder = `\u0000param:${name}\u0000`;
    placeholders[name] = placeholder;
    byPlaceholder.set(placeholder, name);
  }
  const compiled = build(db, placeholders as P).compile();
  // Selecting `*` (SelectAllNode) would break a server-side statement when a column is added.
  if (!JSON.stringify(compiled.query).includes('"SelectAllNode"')) prepareOnServer(compiled.sql);
  const slots = compiled.parameters.map((value): Slot => {
    const name = typeof value === 'string' ? byPlaceholder.get(value) : undefined;
    return name === undefined ? { value } : { name };
  });
  const used = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
  for (const name of byPlaceholder.values()) {
    // A parameter the SQL never binds would be silently ignored: a bug in the query's builder.
    if (!used.has(name)) throw new Error(`Prepared query does not use parameter ${name}.`);
  }
  return { compiled, slots };
}
