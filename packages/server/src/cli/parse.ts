/** Reads a command's arguments against its options: typed values, or a usage error naming the flag. */
import { UsageError, type AnyOption, type Command } from './command.js';

/** What the arguments asked for: the command's help, or a run with these values. */
export type Parsed =
  | { readonly help: true }
  | { readonly help: false; readonly values: Readonly<Record<string, unknown>> };

/** `--help` or `-h` anywhere before `--` asks for help, whatever else is there. */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * Parses the arguments that follow a command's name. Every option must be one of the command's;
 * a value-taking option takes the next argument (or `--name=value`, for a value starting with a
 * dash); a single option given twice, a missing value, a positional argument or a missing
 * required option is a {@link UsageError}.
 *
 * @example
 * const parsed = parseArguments(orgCreate, ['--project', id, '--name', 'Acme', '--slug', 'acme']);
 * if (!parsed.help) await orgCreate.run(parsed.values, io);
 */
export function parseArguments(command: Command, args: readonly string[]): Parsed {
  if (asksForHelp(args)) return { help: true };
  const byShort = new Map<string, string>();
  for (const [name, option] of Object.entries(command.options)) {
    if (option.short) byShort.set(option.short, name);
  }
  const values: Record<string, unknown> = {};
  const given = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else if (/^-[^-]$/.test(arg)) {
      const long = byShort.get(arg.slice(1));
      if (long === undefined) throw new UsageError(`unknown option ${arg}`);
      name = long;
    } else {
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    }
    const option: AnyOption | undefined = Object.hasOwn(command.options, name)
      ? command.options[name]
      : undefined;
    if (!option) throw new UsageError(`unknown option --${name}`);
    const flag = `--${name}`;
    if (option.kind === 'switch') {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      given.set(name, true);
      values[name] = true;
      continue;
    }
    if (given.has(name) && option.kind !== 'repeatable') {
      throw new UsageError(`${flag} is given more than once`);
    }
    let raw = inline;
    if (raw === undefined) {
      const next = args[i + 1];
      // A following option is a forgotten value, not a value: `--name --live`.
      if (next === undefined || (next.startsWith('-') && next.length > 1)) {
        const hint = next === undefined ? '' : ` (or ${flag}=VALUE for a value starting with "-")`;
        throw new UsageError(
          `${flag} needs a value: ${flag} ${option.placeholder ?? 'VALUE'}${hint}`,
        );
      }
      raw = next;
      i++;
    }
    given.set(name, raw);
    const value = option.parse(raw, flag);
    if (option.kind === 'repeatable') {
      values[name] = [...((values[name] as unknown[] | undefined) ?? []), value];
    } else {
      values[name] = value;
    }
  }
  for (const [name, option] of Object.entries(command.options)) {
    if (option.kind === 'required' && (given.get(name) ?? '') === '') {
      throw new UsageError(`--${name} is required`);
    }
    if (option.kind === 'switch') values[name] ??= false;
    if (option.kind === 'repeatable') values[name] ??= [];
  }
  return { help: false, values };
}
