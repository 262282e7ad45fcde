// README.md's configuration table, the variables configFromEnv reads and `gatehouse serve --help`
// name the same settings, so none of the three can gain one the others miss.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { configFromEnv, SETTINGS } from '../config.js';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-env-');

/** The variables in the first column of the root README.md's "## Configuration" table. */
function readmeVariables(): string[] {
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
  const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)])
    .map((match) => match[1] ?? '');
}

/** Every variable configFromEnv reads: all set, so that every branch reads what it needs. */
function variablesConfigReads(): string[] {
  const read = new Set<string>();
  const env = new Proxy<NodeJS.ProcessEnv>(
    {},
    {
      get: (_target, key) => {
        if (typeof key === 'string' && /^[A-Z][A-Z0-9_]*$/.test(key)) read.add(key);
        return '1';
      },
    },
  );
  configFromEnv(env);
  return [...read];
}

/** The variables listed under "Environment:" in `gatehouse serve --help`. */
async function serveHelpVariables(): Promise<string[]> {
  const help = await cli('serve', '--help');
  expect(help.code).toBe(0);
  const section = help.stdout.split('\nEnvironment:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}([A-Z][A-Z0-9_]*)(?= |$)/gm)].map((match) => match[1] ?? '');
}

describe('gatehouse serve --help', () => {
  it('lists every setting of the README configuration table, and no other', async () => {
    const documented = readmeVariables();
    expect(documented).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'SMTP_PASS']));
    expect(documented.length).toBeGreaterThanOrEqual(15);
    const listed = await serveHelpVariables();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...documented].sort());
  });

  it('lists every variable configFromEnv reads, as the README does', async () => {
    const read = variablesConfigReads();
    expect(read).toEqual(expect.arrayContaining(['DATABASE_URL', 'SMS_FROM', 'SMTP_USER']));
    expect(await serveHelpVariables()).toEqual(expect.arrayContaining(read));
    expect(readmeVariables()).toEqual(expect.arrayContaining(read));
  });

  it('lists the settings table, in its order, with the bounds and what production needs', async () => {
    expect(await serveHelpVariables()).toEqual(SETTINGS.map((s) => s.env));
    const help = (await cli('serve', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      'BODY_LIMIT_BYTES The largest request body accepted; larger ones are answered 400.',
    );
    expect(help).toContain('A whole number of bytes, at least 1024. Default: 262144 (256 KiB).');
    expect(help).toMatch(/SMTP_HOST .*?Required in production\. Default: none\./);
    expect(help).toMatch(/METRICS_TOKEN .*?Secret\. Default: none: only callers/);
  });

  it('never shows the value of a secret setting, whatever the environment holds', async () => {
    const secrets = SETTINGS.filter((s) => s.secret);
    expect(secrets.map((s) => s.env)).toEqual(
      expect.arrayContaining(['GATEHOUSE_SERVER_KEY', 'SMTP_PASS', 'METRICS_TOKEN']),
    );
    const env = Object.fromEntries(secrets.map((s) => [s.env, `value-of-${s.env.toLowerCase()}`]));
    for (const argv of [
      ['serve', '--help'],
      ['migrate', '--help'],
      ['sso', 'create-saml', '--help'],
    ]) {
      let output = '';
      const code = await runCli(argv, {
        stdout: (text) => void (output += text),
        stderr: (text) => void (output += text),
        env,
      });
      expect(code, argv.join(' ')).toBe(0);
      expect(output, argv.join(' ')).toContain('GATEHOUSE_SERVER_KEY');
      for (const value of Object.values(env)) expect(output, argv.join(' ')).not.toContain(value);
    }
  });
});
