// `gatehouse captcha show|set` against a temporary SQLite database.
import { describe, expect, it } from 'vitest';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-captcha-');

describe('gatehouse captcha', () => {
  it('shows captcha off, refuses to turn it on without keys, then stores them', async () => {
    const project = await cli('project', 'create', '--name', 'Captcha CLI');
    const id = /^project_id:\s+(\S+)$/m.exec(project.stdout)?.[1] ?? '';
    const before = await cli('captcha', 'show', '--project', id);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('captcha:          off');

    // Refused by the service, as the management API refuses it: exit 1 with the error_type.
    const keyless = await cli('captcha', 'set', '--project', id, '--provider', 'recaptcha');
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('error: invalid_request: ');

    const badScore = await cli('captcha', 'set', '--project', id, '--min-score', '1.5');
    expect(badScore.code).toBe(2);
    expect(badScore.stderr).toContain('--min-score must be a number from 0 to 1');

    const set = await cli(
      'captcha',
      'set',
      '--project',
      id,
      '--provider',
      'recaptcha',
      '--site-key',
      'cli-site-key',
      '--secret-key',
      'cli-secret-value',
      '--min-score',
      '0.7',
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('captcha:          on');
    expect(set.stdout).toContain('provider:         recaptcha');
    expect(set.stdout).toContain('min_score:        0.7');
    expect(set.stdout).not.toContain('cli-secret-value');

    const off = await cli('captcha', 'set', '--project', id, '--enabled', 'false');
    expect(off.stdout).toContain('captcha:          off');
    expect(off.stdout).toContain('site_key:         cli-site-key');
    expect(off.stdout).toContain('secret_key:       (set)');
  });
});
