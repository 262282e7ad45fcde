// A wrong or malformed GATEHOUSE_SERVER_KEY: every command says which variable and what to check.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli, databaseUrl } = cliOnTempDatabase('gatehouse-cli-server-key-');

beforeAll(async () => {
  await cli('migrate');
  expect((await cli('project', 'create', '--name', 'Server key')).code).toBe(0);
});

async function withKey(key: string, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { DATABASE_URL: databaseUrl, GATEHOUSE_SERVER_KEY: key },
  });
  return { code, stdout, stderr };
}

describe('GATEHOUSE_SERVER_KEY', () => {
  it('names the variable when a well-formed key is not the database’s', async () => {
    const res = await withKey(
      randomBytes(32).toString('hex'),
      'project',
      'create',
      '--name',
      'Refused',
    );
    expect(res.code).toBe(1);
    expect(res.stderr).not.toContain('Unsupported state');
    expect(res.stderr).toContain('does not decrypt with this server key');
    expect(res.stderr).toContain('GATEHOUSE_SERVER_KEY is the key this database was created with');
    expect(res.stdout).toBe('');
  });

  it('names the variable and the expected form when the key is malformed', async () => {
    const res = await withKey('not-a-key', 'project', 'create', '--name', 'Refused');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('GATEHOUSE_SERVER_KEY is not a valid server key');
    expect(res.stderr).toContain('64 hex digits or in base64 (it has 9 characters)');
  });

  it('still works with the database’s own key', async () => {
    expect((await cli('project', 'create', '--name', 'Refused')).code).toBe(0);
  });
});
