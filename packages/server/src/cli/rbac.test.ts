// `gatehouse rbac show|set` and `member create --role` against a temporary SQLite database.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RbacPolicy } from '@gatehouse/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-rbac-');
const files = mkdtempSync(join(tmpdir(), 'gatehouse-cli-rbac-files-'));
let projectId = '';

function policyFile(name: string, content: unknown): string {
  const path = join(files, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

beforeAll(async () => {
  const project = await cli('project', 'create', '--name', 'RBAC CLI');
  projectId = /^project_id:\s+(\S+)$/m.exec(project.stdout)?.[1] ?? '';
  await cli('org', 'create', '--project', projectId, '--name', 'Acme', '--slug', 'acme');
});

describe('gatehouse rbac', () => {
  it('shows the built-in policy, takes it back edited, and assigns the new role', async () => {
    const shown = await cli('rbac', 'show', '--project', projectId);
    expect(shown.code).toBe(0);
    const policy = JSON.parse(shown.stdout) as RbacPolicy;
    expect(policy.roles.map((r) => r.role_id)).toEqual(['member', 'admin']);

    policy.resources.push({ resource_id: 'reports', description: 'Reports', actions: ['read'] });
    policy.roles.push({
      role_id: 'analyst',
      description: 'Reads reports',
      permissions: [{ resource_id: 'reports', actions: ['read'] }],
    });
    const set = await cli(
      'rbac',
      'set',
      '--project',
      projectId,
      '--file',
      policyFile('edited.json', policy),
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Policy saved.');
    const after = JSON.parse(
      (await cli('rbac', 'show', '--project', projectId)).stdout,
    ) as RbacPolicy;
    expect(after).toEqual(policy);

    const member = await cli(
      'member',
      'create',
      '--project',
      projectId,
      '--org',
      'acme',
      '--email',
      'ana@acme.test',
      '--role',
      'analyst',
    );
    expect(member.code).toBe(0);
    expect(member.stdout).toMatch(/roles:\s+analyst, member/);
    const unknown = await cli(
      'member',
      'create',
      '--project',
      projectId,
      '--org',
      'acme',
      '--email',
      'eve@acme.test',
      '--role',
      'root',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('root');
  });

  it('refuses files that are not JSON, not a policy, or an inconsistent one', async () => {
    // A file that cannot be read as JSON is a usage mistake (exit 2); a policy the management
    // API would refuse is refused the same way, with its error_type (exit 1).
    const cases: [string, number, string][] = [
      [policyFile('broken.json', '{"roles": ['), 2, 'is not JSON'],
      [
        policyFile('shape.json', { roles: [{ role_id: 'a b', permissions: [] }] }),
        1,
        'error: invalid_request: roles.0.role_id',
      ],
      [
        policyFile('dangling.json', {
          roles: [{ role_id: 'x', permissions: [{ resource_id: 'nothing', actions: ['*'] }] }],
          resources: [],
        }),
        1,
        'nothing',
      ],
      [join(files, 'missing.json'), 2, 'Cannot read'],
    ];
    for (const [file, code, words] of cases) {
      const res = await cli('rbac', 'set', '--project', projectId, '--file', file);
      expect([file, res.code]).toEqual([file, code]);
      expect(res.stderr).toContain(words);
    }
    // Nothing of the refused files was stored.
    const after = JSON.parse(
      (await cli('rbac', 'show', '--project', projectId)).stdout,
    ) as RbacPolicy;
    expect(after.roles.map((r) => r.role_id)).toEqual(['member', 'admin', 'analyst']);
  });
});
