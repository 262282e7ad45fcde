/** The CLI's help texts, generated from the command table: the overview, a group's and a command's. */
import { DEFAULT_DATABASE_URL } from '../store/db.js';
import type { Command } from './command.js';

/** The name the CLI is installed under (`bin` in package.json). */
export const PROGRAM = 'gatehouse';

/** Help fits a 100-column terminal, like the code (docs/contributing.md, habit 9). */
const WIDTH = 100;
/** Labels longer than this go on their own line, with the description below. */
const LABEL_WIDTH = 28;

/** Ends a table description with a full stop, unless it already ends a sentence. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** Splits text into lines of at most `width` columns at spaces; a longer word stays whole. */
function wrapWords(words: readonly string[], width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Wraps each paragraph (separated by blank lines) of prose. */
function wrapProse(text: string, width: number, indent = ''): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph, i) => [
      ...(i > 0 ? [''] : []),
      ...wrapWords(paragraph.split(/\s+/).filter(Boolean), width - indent.length).map(
        (line) => indent + line,
      ),
    ]);
}

/** Splits a usage line at spaces outside brackets, so `[--port N]` stays together. */
function usageTokens(usage: string): string[] {
  const tokens: string[] = [];
  let depth = 0;
  let token = '';
  for (const char of usage) {
    if (char === '[' || char === '(') depth++;
    if (char === ']' || char === ')') depth--;
    if (char === ' ' && depth === 0) {
      if (token !== '') tokens.push(token);
      token = '';
    } else {
      token += char;
    }
  }
  if (token !== '') tokens.push(token);
  return tokens;
}

/** Two columns: labels, then descriptions wrapped beside them (or below a long label). */
function table(rows: readonly (readonly [label: string, description: string])[]): string[] {
  const labelWidth = Math.min(
    LABEL_WIDTH,
    Math.max(...rows.map(([label]) => label.length).filter((n) => n <= LABEL_WIDTH)),
  );
  const gutter = ' '.repeat(2 + labelWidth + 2);
  return rows.flatMap(([label, description]) => {
    const text = wrapProse(description, WIDTH - gutter.length);
    if (label.length > labelWidth) return [`  ${label}`, ...text.map((line) => gutter + line)];
    const [first = '', ...rest] = text;
    return [`  ${label.padEnd(labelWidth)}  ${first}`.trimEnd(), ...rest.map((l) => gutter + l)];
  });
}

/**
 * A command's full name: `org update`.
 *
 * @example
 * commandName(orgUpdate); // 'org update'
 */
export function commandName(command: Command): string {
  return command.name.join(' ');
}

/**
 * A command's usage on one line, as packages/server/README.md lists it.
 *
 * @example
 * usageLine(migrate); // 'gatehouse migrate'
 */
export function usageLine(command: Command): string {
  return [PROGRAM, commandName(command), command.usage].filter(Boolean).join(' ');
}

/**
 * `Usage: gatehouse …`, wrapped to the terminal width with continuation lines under the command.
 *
 * @example
 * io.stderr(`${error.message}\n\n${formatUsage(command)}`);
 */
export function formatUsage(command: Command): string {
  const words = [`Usage: ${PROGRAM}`, ...command.name, ...usageTokens(command.usage)];
  return `${wrapWords(words, WIDTH, ' '.repeat('Usage: '.length)).join('\n')}\n`;
}

/**
 * A command's `--help`: usage, what it does, its options and the environment it reads.
 *
 * @example
 * io.stdout(formatHelp(serve));
 */
export function formatHelp(command: Command): string {
  const options = Object.entries(command.options).map(([name, option]) => {
    const flag = `--${name}${option.placeholder ? ` ${option.placeholder}` : ''}`;
    const note =
      option.kind === 'required'
        ? ' Required.'
        : option.kind === 'repeatable'
          ? ' Repeatable.'
          : '';
    return [
      option.short ? `-${option.short}, ${flag}` : flag,
      `${sentence(option.description)}${note}`,
    ] as const;
  });
  options.push(['-h, --help', 'Show this help.']);
  const lines = [
    formatUsage(command).trimEnd(),
    '',
    ...wrapProse(command.description, WIDTH),
    '',
    'Options:',
    ...table(options),
  ];
  if (command.environment.length > 0) {
    lines.push(
      '',
      'Environment:',
      ...table(
        command.environment.map(
          (s) => [s.name, `${sentence(s.description)} Default: ${sentence(s.fallback)}`] as const,
        ),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The overview of commands (`gatehouse --help`), or of one group's (`gatehouse org`).
 *
 * @example
 * io.stdout(formatOverview(COMMANDS));
 */
export function formatOverview(commands: readonly Command[], group?: string): string {
  const shown = group === undefined ? commands : commands.filter((c) => c.name[0] === group);
  const placeholder = group === undefined ? '<command>' : `${group} <command>`;
  return [
    `Usage: ${PROGRAM} ${placeholder} [options]`,
    '',
    'Commands:',
    ...table(shown.map((c) => [commandName(c), c.summary] as const)),
    '',
    `Run "${PROGRAM} ${placeholder} --help" for a command's options.`,
    `The database is DATABASE_URL (default ${DEFAULT_DATABASE_URL}).`,
    '',
  ].join('\n');
}
