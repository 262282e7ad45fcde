/** Argument checks of the SDK calls (docs/widget.md §5): misuse is a usage error raised before any request. */
import { GatehouseUsageError } from './errors.js';

type Kind = 'string' | 'number' | 'boolean' | 'string[]' | 'record' | 'function';

/** A field's expected kind, and whether it may be omitted. */
export type FieldRules = Record<string, `${Kind}` | `${Kind}?`>;

/** The kind a value of type `T` is checked as. */
type KindOf<T> = T extends (...args: never[]) => unknown
  ? 'function'
  : T extends string
    ? 'string'
    : T extends number
      ? 'number'
      : T extends boolean
        ? 'boolean'
        : T extends readonly string[]
          ? 'string[]'
          : 'record';

/**
 * The exact rules for an argument type: one per field, of the field's kind, optional where the
 * field is. The call's argument type comes from the endpoint table, so a rule that drifts from
 * the contract (missing, extra, wrong kind or optionality) does not compile.
 */
export type RulesFor<T> = {
  [K in keyof T]-?: undefined extends T[K] ? `${KindOf<NonNullable<T[K]>>}?` : KindOf<T[K]>;
};

/**
 * Checks `args` against `rules` and returns it typed, or throws `GatehouseUsageError` naming the
 * call and the first offending field.
 *
 * @example
 * check('magicLinks.authenticate', args, { magic_links_token: 'string', locale: 'string?' });
 */
export function check<T extends object>(method: string, args: T, rules: RulesFor<T>): T {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new GatehouseUsageError(`${method}: expected an object of arguments.`);
  }
  const record = args as Record<string, unknown>;
  for (const [field, rule] of Object.entries(rules as FieldRules)) {
    const optional = rule.endsWith('?');
    const kind = (optional ? rule.slice(0, -1) : rule) as Kind;
    const value = record[field];
    if (value === undefined) {
      if (optional) continue;
      throw new GatehouseUsageError(`${method}: ${field} is a required argument.`);
    }
    if (!hasKind(value, kind)) {
      const expected = kind === 'record' ? 'an object of strings' : `a ${kind}`;
      throw new GatehouseUsageError(`${method}: ${field} must be ${expected}.`);
    }
  }
  return args;
}

function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'record':
      // A plain object of string values, such as OAuth provider parameters.
      return (
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((v) => typeof v === 'string')
      );
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === kind;
  }
}
