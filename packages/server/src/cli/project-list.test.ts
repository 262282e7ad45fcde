// `gatehouse project list` against a temporary SQLite database: the ids other commands take.
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-project-list-');

beforeAll(async () => {
  expect((await cli('migrate')).code).toBe(0);
});

describe('gatehouse project list', () => {
  it('says how to make a project when there is none', async () => {
    const listed = await cli('project', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('No projects. Create one with `gatehouse project create`.\n');
  });

  it('lists every project, oldest first, with its id and public token but never a secret', async () => {
    const field = (stdout: string, name: string) =>
      new RegExp(`^${name}:\\s+(\\S+)$`, 'm').exec(stdout)?.[1] ?? '';
    const first = await cli('project', 'create', '--name', 'First app');
    const second = await cli('project', 'create', '--name', 'Second app', '--live');
    const listed = await cli('project', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^project_id +environment +public_token +name$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${field(first.stdout, 'project_id')} +test +${field(first.stdout, 'public_token')} +First app$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${field(second.stdout, 'project_id')} +live +${field(second.stdout, 'public_token')} +Second app$`,
        ),
      ),
    ]);
    expect(listed.stdout).not.toContain(field(first.stdout, 'secret'));
    expect(listed.stdout).not.toContain('secret-');
  });
});
