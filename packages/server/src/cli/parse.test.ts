// The argument parser on its own: the values a handler receives, and the mistakes it refuses.
import { describe, expect, it } from 'vitest';
import { choice, defineCommand, option, toggle, UsageError } from './command.js';
import { parseArguments } from './parse.js';

const command = defineCommand({
  name: ['thing', 'make'],
  summary: 'Make a thing',
  usage: '--id ID [--tag T]… [--size small|large] [--dry-run] [--port N]',
  description: 'Makes a thing.',
  options: {
    id: option('ID', 'The thing').required(),
    tag: option('T', 'A tag').repeatable(),
    size: choice(['small', 'large'], 'How big'),
    'dry-run': toggle('Only say what would happen'),
    port: option('N', 'A number', { short: 'p', parse: Number }),
  },
  environment: [],
  run: async () => undefined,
});

const values = (...args: string[]) => {
  const parsed = parseArguments(command, args);
  if (parsed.help) throw new Error('expected values, not help');
  return parsed.values;
};
const refusal = (...args: string[]) => {
  try {
    parseArguments(command, args);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
};

describe('parseArguments', () => {
  it('fills in absent switches, lists and optional values', () => {
    expect(values('--id', 'a')).toEqual({ id: 'a', 'dry-run': false, tag: [] });
  });

  it('reads values, repeated options, inline values and short aliases', () => {
    expect(
      values('--id=a', '--tag', 'x', '--tag=y', '--size', 'large', '--dry-run', '-p', '8080'),
    ).toEqual({ id: 'a', tag: ['x', 'y'], size: 'large', 'dry-run': true, port: 8080 });
    expect(values('--id=-dash', '--tag', '')).toMatchObject({ id: '-dash', tag: [''] });
  });

  it('answers --help or -h anywhere before --, whatever else is there', () => {
    expect(parseArguments(command, ['--nope', '-h'])).toEqual({ help: true });
    expect(parseArguments(command, ['--id', 'a', '--help'])).toEqual({ help: true });
    expect(refusal('--', '--help')).toBe('unexpected argument "--"');
  });

  it('refuses what the command does not take, naming the flag', () => {
    expect(refusal('--id', 'a', '--nope')).toBe('unknown option --nope');
    expect(refusal('--id', 'a', '-q')).toBe('unknown option -q');
    expect(refusal('--id', 'a', 'loose')).toBe('unexpected argument "loose"');
    expect(refusal('--id', 'a', '--size', 'huge')).toBe('--size must be one of small, large');
    expect(refusal('--id', 'a', '--dry-run=no')).toBe('--dry-run takes no value');
    expect(refusal('--id', 'a', '--id', 'b')).toBe('--id is given more than once');
    expect(refusal('--tag', 'x')).toBe('--id is required');
    expect(refusal('--id', '')).toBe('--id is required');
    expect(refusal('--id')).toBe('--id needs a value: --id ID');
    expect(refusal('--id', '--dry-run')).toBe(
      '--id needs a value: --id ID (or --id=VALUE for a value starting with "-")',
    );
  });
});
