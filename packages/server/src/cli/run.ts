/** Dispatch: finds the command in the table, parses its arguments, runs it, and maps errors to exit codes. */
import { AdminError } from '../products/management/admin.js';
import { UsageError, type CliIo, type Command } from './command.js';
import { COMMANDS } from './commands.js';
import { commandName, formatHelp, formatOverview, formatUsage, PROGRAM } from './help.js';
import { parseArguments } from './parse.js';

const HELP_WORDS: ReadonlySet<string | undefined> = new Set(['--help', '-h', 'help']);

/** The command whose name the arguments start with. */
function findCommand(argv: readonly string[]): Command | undefined {
  return COMMANDS.find((command) => command.name.every((word, i) => argv[i] === word));
}

async function runCommand(command: Command, args: readonly string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArguments(command, args);
    if (parsed.help) {
      io.stdout(formatHelp(command));
      return 0;
    }
    await command.run(parsed.values, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(
        `error: ${error.message}\n\n${formatUsage(command)}` +
          `Run "${PROGRAM} ${commandName(command)} --help" for its options.\n`,
      );
      return 2;
    }
    // Operator-facing: the message, never a stack trace; a refusal the management API would
    // also make starts with its error_type.
    const message = error instanceof Error ? error.message : String(error);
    const type = error instanceof AdminError ? `${error.errorType}: ` : '';
    io.stderr(`error: ${type}${message}\n`);
    return 1;
  }
}

/**
 * Runs the CLI with the given arguments (without `node` and the script) and returns the exit
 * code: 0 success, 1 failure, 2 usage error.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { stdout, stderr, env: process.env });
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || HELP_WORDS.has(first)) {
    io.stdout(formatOverview(COMMANDS));
    return first === undefined ? 2 : 0;
  }
  const command = findCommand(argv);
  if (command) return runCommand(command, argv.slice(command.name.length), io);
  // A group's first word alone (`gatehouse org`) lists the group's commands.
  if (COMMANDS.some((c) => c.name.length > 1 && c.name[0] === first)) {
    if (second !== undefined && HELP_WORDS.has(second)) {
      io.stdout(formatOverview(COMMANDS, first));
      return 0;
    }
    const unknown = second === undefined ? '' : `Unknown command: ${first} ${second}\n\n`;
    io.stderr(`${unknown}${formatOverview(COMMANDS, first)}`);
    return 2;
  }
  io.stderr(`Unknown command: ${first}\n\n${formatOverview(COMMANDS)}`);
  return 2;
}
