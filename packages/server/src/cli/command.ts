/** What one `gatehouse` command is: its name, help, options and handler, declared in one place. */

/** Where the CLI writes, and the environment it reads; injectable for tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/**
 * A mistake in how the command was called: reported with the command's usage and exit code 2,
 * never with a stack trace.
 *
 * @example
 * throw new UsageError('exactly one of --session, --session-token and --member is required');
 */
export class UsageError extends Error {}

/**
 * How often an option may be given and what that makes its value: a `switch` takes no value and
 * is a boolean; the others take one value per occurrence.
 */
export type OptionKind = 'switch' | 'optional' | 'required' | 'repeatable';

/** Turns one raw value into the option's value, or throws a {@link UsageError} naming `flag`. */
export type Parser<T> = (raw: string, flag: string) => T;

/** One `--name` of a command, as help shows it and as the parser reads it. */
export interface Option<T, K extends OptionKind = OptionKind> {
  readonly kind: K;
  /** What the value stands for in help (`ID`, `URL`); absent for a switch. */
  readonly placeholder: string | undefined;
  readonly description: string;
  /** A one-letter alias (`-p`). */
  readonly short: string | undefined;
  readonly parse: Parser<T>;
}

/** An option that is optional and single so far; `.required()` and `.repeatable()` change that. */
export interface OptionBuilder<T> extends Option<T, 'optional'> {
  /** The command refuses to run without it (an empty value counts as missing). */
  required(): Option<T, 'required'>;
  /** May be given several times; the value is the list, empty when absent. */
  repeatable(): Option<T, 'repeatable'>;
}

/** Any option, whatever its value. */
export type AnyOption = Option<unknown>;

/** The value a handler receives for an option. */
export type OptionValue<O> =
  O extends Option<infer T, infer K>
    ? K extends 'switch'
      ? boolean
      : K extends 'repeatable'
        ? T[]
        : K extends 'required'
          ? T
          : T | undefined
    : never;

/** The values a handler receives, keyed by option name without the dashes. */
export type Values<O extends Record<string, AnyOption>> = {
  readonly [K in keyof O]: OptionValue<O[K]>;
};

const asIs: Parser<string> = (raw) => raw;

/**
 * An option that takes a value.
 *
 * @example
 * const options = {
 *   project: option('ID', 'The project').required(),
 *   origin: option('URL', 'An origin allowed to call the SDK API').repeatable(),
 *   port: option('N', 'The port to listen on', { short: 'p', parse: portNumber }),
 * };
 */
export function option(placeholder: string, description: string): OptionBuilder<string>;
export function option<T>(
  placeholder: string,
  description: string,
  settings: { parse: Parser<T>; short?: string },
): OptionBuilder<T>;
export function option<T>(
  placeholder: string,
  description: string,
  settings?: { parse?: Parser<T>; short?: string },
): OptionBuilder<T | string> {
  const base = {
    placeholder,
    description,
    short: settings?.short,
    parse: settings?.parse ?? asIs,
  };
  return {
    ...base,
    kind: 'optional',
    required: () => ({ ...base, kind: 'required' }),
    repeatable: () => ({ ...base, kind: 'repeatable' }),
  };
}

/**
 * An option that takes one of a few values; help shows them as its placeholder.
 *
 * @example
 * const policy = choice(['OPTIONAL', 'REQUIRED_FOR_ALL'], 'Who must use a second factor');
 */
export function choice<const V extends string>(
  values: readonly V[],
  description: string,
): OptionBuilder<V> {
  return option(values.join('|'), description, { parse: oneOf(values) });
}

/**
 * An option that takes no value: present or not.
 *
 * @example
 * const live = toggle('Create a live project instead of a test one');
 */
export function toggle(description: string): Option<boolean, 'switch'> {
  return {
    kind: 'switch',
    placeholder: undefined,
    description,
    short: undefined,
    parse: () => true,
  };
}

/**
 * A parser accepting only the given values.
 *
 * @example
 * oneOf(['true', 'false'])('yes', '--mfa-enrolled'); // throws "--mfa-enrolled must be one of true, false"
 */
export function oneOf<const V extends string>(values: readonly V[]): Parser<V> {
  return (raw, flag) => {
    if ((values as readonly string[]).includes(raw)) return raw as V;
    throw new UsageError(`${flag} must be one of ${values.join(', ')}`);
  };
}

/**
 * A parser for `true` or `false`.
 *
 * @example
 * const verified = option('true|false', 'Whether the number is verified', { parse: trueOrFalse });
 */
export const trueOrFalse: Parser<boolean> = (raw, flag) =>
  oneOf(['true', 'false'])(raw, flag) === 'true';

/** An environment variable a command reads, as its help lists it. */
export interface Setting {
  readonly name: string;
  readonly description: string;
  /** What applies when it is unset. */
  readonly fallback: string;
}

/** What {@link defineCommand} takes: one command, typed by its options. */
export interface CommandSpec<O extends Record<string, AnyOption>> {
  /** The words that select it: `['org', 'update']`. */
  readonly name: readonly string[];
  /** One line for the overview of every command. */
  readonly summary: string;
  /** The arguments after the name, as help and README show them. */
  readonly usage: string;
  /** What it does, in a few sentences for its `--help`. */
  readonly description: string;
  readonly options: O;
  /** The environment variables worth listing in its help. */
  readonly environment: readonly Setting[];
  /** Runs it; a thrown {@link UsageError} exits 2, any other error 1, a return 0. */
  run(values: Values<O>, io: CliIo): Promise<void>;
}

/** One entry of the command table, its option types erased so entries fit in one list. */
export interface Command {
  readonly name: readonly string[];
  readonly summary: string;
  readonly usage: string;
  readonly description: string;
  readonly options: Readonly<Record<string, AnyOption>>;
  readonly environment: readonly Setting[];
  run(values: Readonly<Record<string, unknown>>, io: CliIo): Promise<void>;
}

/**
 * Declares a command; its handler's `values` are typed by its options.
 *
 * @example
 * export const migrate = defineCommand({
 *   name: ['migrate'],
 *   summary: 'Bring the database schema up to date',
 *   usage: '',
 *   description: 'Applies pending schema migrations to DATABASE_URL. Never drops data.',
 *   options: {},
 *   environment: DATABASE_SETTINGS,
 *   run: async (_values, io) => { … },
 * });
 */
export function defineCommand<const O extends Record<string, AnyOption>>(
  spec: CommandSpec<O>,
): Command {
  return {
    ...spec,
    // Sound: the parser builds `values` from these same options (cli/parse.ts).
    run: (values, io) => spec.run(values as Values<O>, io),
  };
}
