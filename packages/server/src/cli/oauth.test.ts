// `gatehouse oauth show|set` against a temporary SQLite database and a real OpenID provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { runCli } from '../cli.js';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli, databaseUrl } = cliOnTempDatabase('gatehouse-cli-oauth-');
let idp: OidcIdp;
let projectId = '';

beforeAll(async () => {
  idp = await startOidcIdp();
  const project = await cli('project', 'create', '--name', 'OAuth CLI');
  projectId = /^project_id:\s+(\S+)$/m.exec(project.stdout)?.[1] ?? '';
});

afterAll(async () => {
  await idp?.close();
});

describe('gatehouse oauth', () => {
  it('shows both providers off until one is set, then the redirect URI to register', async () => {
    const before = await cli('oauth', 'show', '--project', projectId);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('provider:         google (off)');
    expect(before.stdout).toContain('provider:         microsoft (off)');

    const set = await cli(
      'oauth',
      'set',
      '--project',
      projectId,
      '--provider',
      'google',
      '--client-id',
      'cli-client',
      '--client-secret',
      'cli-secret-value',
      '--issuer',
      idp.issuer,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('provider:         google (on)');
    expect(set.stdout).toMatch(/redirect URI:\s+\S+\/v1\/b2b\/public\/oauth\/google\/callback/);
    expect(set.stdout).not.toContain('cli-secret-value');
  });

  it('refuses an issuer whose discovery fails', async () => {
    const res = await cli(
      'oauth',
      'set',
      '--project',
      projectId,
      '--provider',
      'microsoft',
      '--client-id',
      'x',
      '--client-secret',
      'y',
      '--issuer',
      'http://127.0.0.1:9/none',
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: oidc_discovery_failed: ');
  });

  it('prints the redirect URI under PUBLIC_URL, and warns when PUBLIC_URL is unset', async () => {
    const unset = await cli('oauth', 'show', '--project', projectId);
    expect(unset.stdout).toContain('http://localhost:3000/v1/b2b/public/oauth/google/callback');
    expect(unset.stderr).toContain('PUBLIC_URL is not set');
    let stdout = '';
    let stderr = '';
    const code = await runCli(['oauth', 'show', '--project', projectId], {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: 'https://auth.example.com' },
    });
    expect(code).toBe(0);
    expect(stdout).toContain('https://auth.example.com/v1/b2b/public/oauth/google/callback');
    expect(stdout).toContain('https://auth.example.com/v1/b2b/public/oauth/microsoft/callback');
    expect(stdout).not.toContain('localhost');
    expect(stderr).not.toContain('PUBLIC_URL');
  });

  it('lists PUBLIC_URL in its help', async () => {
    const help = await cli('oauth', 'show', '--help');
    expect(help.stdout).toContain('PUBLIC_URL');
  });
});
