// `gatehouse org update` and the OAuth tenants an organization trusts, against a temporary
// SQLite database: the same checks as the management API, nothing stored when refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-tenants-');
const TENANT = '9f1c7a52-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
let projectId = '';

/** `gatehouse org update` of Acme with more arguments. */
const update = (...args: string[]) =>
  cli('org', 'update', '--project', projectId, '--org', 'acme', ...args);

beforeAll(async () => {
  const project = await cli('project', 'create', '--name', 'Tenants CLI');
  projectId = /^project_id:\s+(\S+)$/m.exec(project.stdout)?.[1] ?? '';
  const org = await cli(
    'org',
    'create',
    '--project',
    projectId,
    '--name',
    'Acme',
    '--slug',
    'acme',
  );
  expect(org.code).toBe(0);
});

describe('gatehouse org update --allowed-tenant', () => {
  it('sets the trusted tenants and tenant JIT, and shows them', async () => {
    const res = await update(
      '--oauth-tenant-jit',
      'RESTRICTED',
      '--allowed-tenant',
      `microsoft:${TENANT.toUpperCase()}`,
      '--allowed-tenant',
      'google:Acme.test',
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('oauth_tenant_jit:    RESTRICTED');
    expect(res.stdout).toContain(`allowed_tenants:     microsoft:${TENANT}, google:acme.test`);
  });

  it('clears one provider with an empty tenant and keeps the other', async () => {
    const res = await update('--allowed-tenant', 'google:');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`allowed_tenants:     microsoft:${TENANT}\n`);
  });

  it('refuses a malformed tenant as the management API does, changing nothing', async () => {
    const bad = await update('--allowed-tenant', 'microsoft:not a tenant!');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: invalid_request: allowed_oauth_tenants.microsoft.0');
    const unknown = await update('--allowed-tenant', 'okta:x');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--allowed-tenant takes microsoft:<tenant id>');
    const after = await update();
    expect(after.stdout).toContain(`allowed_tenants:     microsoft:${TENANT}\n`);
  });
});
