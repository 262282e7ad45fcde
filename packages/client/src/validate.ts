/** Argument checks of the SDK calls (docs/widget.md §5): misuse is a usage error raised before any request. */
import { GatehouseUsageError } from './errors.js';

type Kind = 'string' | 'number' | 'boolean' | 'string[]' | 'record';

/** A field's expected kind, and whether it may be omitted. */
export type FieldRules = Record<string, `${Kind}` | `${Kind}?`>;

/**
 * Checks `args` against `rules` and returns it typed, or throws `GatehouseUsageError` naming the
 * call and the first offending field.
 *
 * @example
 * check('magicLinks.authenticate', args, { magic_links_token: 'string', locale: 'string?' });
 */
export function check<T>(method: string, args: T, rules: FieldRules): T {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new GatehouseUsageError(`${method}: expected an object of arguments.`);
  }
  const record = args as Record<string, unknown>;
  for (const [field, rule] of Object.entries(rules)) {
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
