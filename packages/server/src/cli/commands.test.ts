// The command table's contract: every entry has a summary, a usage that names exactly its options
// and a --help; the overview lists them all; usage mistakes exit 2 with the usage, never a trace.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliOnTempDatabase } from '../test/cli.js';
import { COMMANDS } from './commands.js';
import { commandName, usageLine } from './help.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-table-');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The `--name`s a usage line mentions. */
const flagsIn = (usage: string) =>
  new Set([...usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]));

describe('the command table', () => {
  it('names each command once', () => {
    const names = COMMANDS.map(commandName);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(COMMANDS.map((command) => [commandName(command), command] as const))(
    '%s has a summary, a usage naming exactly its options, and a --help',
    async (name, command) => {
      expect(command.summary).toMatch(/^[A-Z][^\n]*[^.\n]$/);
      expect(command.description.trim()).not.toBe('');
      expect(flagsIn(command.usage)).toEqual(new Set(Object.keys(command.options)));
      for (const option of Object.values(command.options)) {
        expect(option.description.trim()).not.toBe('');
      }

      const help = await cli(...command.name, '--help');
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(new RegExp(`^Usage: gatehouse ${name}\\b`));
      for (const option of Object.keys(command.options)) {
        expect(help.stdout).toMatch(new RegExp(`^ +(-\\w, )?--${option}\\b`, 'm'));
      }
      expect(help.stdout).toMatch(/^ +-h, --help +Show this help\.$/m);
    },
  );

  it('says an option is repeatable once, in the note the help adds', async () => {
    for (const command of COMMANDS) {
      for (const [name, option] of Object.entries(command.options)) {
        expect(option.description, `${commandName(command)} --${name}`).not.toMatch(/repeatable/i);
      }
    }
    const help = await cli('member', 'create', '--help');
    expect(help.stdout).toMatch(/^ +--role R +A role to assign directly\. Repeatable\.$/m);
  });

  it('lists every command with its summary in the overview', async () => {
    const overview = await cli('--help');
    expect(overview.code).toBe(0);
    for (const command of COMMANDS) {
      const row = new RegExp(
        `^  ${escape(commandName(command))} +${escape(command.summary)}$`,
        'm',
      );
      expect(overview.stdout).toMatch(row);
    }
    expect((await cli()).code).toBe(2);
  });

  it('lists a group’s commands for its first word alone', async () => {
    const group = await cli('org', '--help');
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('Usage: gatehouse org <command>');
    expect(group.stdout).toContain('org update');
    expect(group.stdout).not.toContain('member create');
    const bare = await cli('org');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('org create');
    const unknown = await cli('org', 'delete');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: org delete');
  });

  it('matches the usage lines packages/server/README.md lists', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /^## CLI\n+```\n([\s\S]*?)\n```/m.exec(readme)?.[1];
    expect(block).toBeDefined();
    expect(block?.split('\n')).toEqual(COMMANDS.map(usageLine));
  });
});

describe('usage mistakes', () => {
  const noTrace = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

  it.each([
    [['project', 'create', '--name', 'x', '--bogus'], 'unknown option --bogus'],
    [['project', 'create', '--name'], '--name needs a value: --name N'],
    [['project', 'create', '--name', '--live'], '--name needs a value'],
    [['project', 'create', '--name', ''], '--name is required'],
    [['project', 'create', '--name', 'x', 'extra'], 'unexpected argument "extra"'],
    [['project', 'create', '--name', 'x', '--live=yes'], '--live takes no value'],
    [
      ['org', 'create', '--project', 'p', '--name', 'a', '--name', 'b', '--slug', 's'],
      '--name is given more than once',
    ],
    [['org', 'create', '--name', 'a', '--slug', 's'], '--project is required'],
    [
      ['org', 'update', '--project', 'p', '--org', 'o', '--allowed-mfa-method', 'email'],
      '--allowed-mfa-method must be one of sms_otp, totp',
    ],
    [
      ['member', 'update', '--project', 'p', '--member', 'm', '--mfa-enrolled', 'yes'],
      '--mfa-enrolled must be one of true, false',
    ],
    [['serve', '--port', '70000'], '--port must be a port number'],
    [['serve', '-x'], 'unknown option -x'],
  ])('%j: %s', async (argv, message) => {
    const res = await cli(...argv);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const name = argv.slice(0, argv[0] === 'serve' ? 1 : 2).join(' ');
    expect(res.stderr).toMatch(
      new RegExp(`^error: ${escape(message)}.*\n\nUsage: gatehouse ${name}\\b`),
    );
    expect(res.stderr).toContain(`Run "gatehouse ${name} --help" for its options.`);
    noTrace(res.stderr);
  });

  it('shows help when --help comes with other options, even unknown ones', async () => {
    const res = await cli('org', 'create', '--bogus', '--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: gatehouse org create');
  });

  it('takes --name=value, for a value starting with a dash too', async () => {
    const res = await cli('project', 'create', '--name=-Dash-');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Project created.');
  });

  it('reports a bad PORT by its name', async () => {
    const { runCli } = await import('./run.js');
    let stderr = '';
    const code = await runCli(['serve'], {
      stdout: () => undefined,
      stderr: (text) => void (stderr += text),
      env: { PORT: 'eighty' },
    });
    expect(code).toBe(2);
    expect(stderr).toContain('error: PORT must be a port number');
  });
});
