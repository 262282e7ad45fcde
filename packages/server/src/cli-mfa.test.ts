// The CLI's MFA settings: `org update` and `member update` against a temporary SQLite database.
import { describe, expect, it } from 'vitest';
import { cliOnTempDatabase } from './test/cli.js';

const { cli } = cliOnTempDatabase('gatehouse-cli-mfa-');

const field = (text: string, name: string) =>
  new RegExp(`^${name}:[ \\t]*(.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';

describe('gatehouse org update / member update', () => {
  it('prints help for both commands', async () => {
    for (const command of [
      ['org', 'update'],
      ['member', 'update'],
    ]) {
      const res = await cli(...command, '--help');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`Usage: gatehouse ${command.join(' ')}`);
    }
  });

  it('sets an organization’s MFA policy and a member’s MFA settings', async () => {
    const project = field((await cli('project', 'create', '--name', 'Cli')).stdout, 'project_id');
    expect(
      (await cli('org', 'create', '--project', project, '--name', 'Acme', '--slug', 'acme')).code,
    ).toBe(0);
    const member = await cli(
      'member',
      'create',
      '--project',
      project,
      '--org',
      'acme',
      '--email',
      'ada@acme.test',
    );
    const memberId = field(member.stdout, 'member_id');

    const org = await cli(
      'org',
      'update',
      '--project',
      project,
      '--org',
      'acme',
      '--mfa-policy',
      'REQUIRED_FOR_ALL',
      '--mfa-methods',
      'RESTRICTED',
      '--allowed-mfa-method',
      'totp',
    );
    expect(org.code).toBe(0);
    expect(field(org.stdout, 'mfa_policy')).toBe('REQUIRED_FOR_ALL');
    expect(field(org.stdout, 'mfa_methods')).toBe('RESTRICTED');
    expect(field(org.stdout, 'allowed_mfa_methods')).toBe('totp');

    const byEmail = await cli(
      'member',
      'update',
      '--project',
      project,
      '--org',
      'acme',
      '--email',
      'ada@acme.test',
      '--mfa-enrolled',
      'true',
      '--phone',
      '(415) 555-0161',
      '--phone-verified',
      'true',
      '--default-mfa-method',
      'sms_otp',
    );
    expect(byEmail.code).toBe(0);
    expect(field(byEmail.stdout, 'member_id')).toBe(memberId);
    expect(field(byEmail.stdout, 'mfa_enrolled')).toBe('true');
    expect(field(byEmail.stdout, 'mfa_phone_number')).toBe('+14155550161');
    expect(field(byEmail.stdout, 'mfa_phone_number_verified')).toBe('true');
    expect(field(byEmail.stdout, 'default_mfa_method')).toBe('sms_otp');

    const byId = await cli(
      'member',
      'update',
      '--project',
      project,
      '--member',
      memberId,
      '--default-mfa-method',
      'none',
    );
    expect(field(byId.stdout, 'default_mfa_method')).toBe('none');
  });

  it('reports bad values as usage errors and bad numbers as failures', async () => {
    const policy = await cli(
      'org',
      'update',
      '--project',
      'p',
      '--org',
      'acme',
      '--mfa-policy',
      'SOMETIMES',
    );
    expect(policy.code).toBe(2);
    expect(policy.stderr).toContain('--mfa-policy must be one of OPTIONAL, REQUIRED_FOR_ALL');
    expect((await cli('member', 'update', '--project', 'p')).code).toBe(2);
    const project = field((await cli('project', 'create', '--name', 'Cli2')).stdout, 'project_id');
    await cli('org', 'create', '--project', project, '--name', 'Beta', '--slug', 'beta');
    await cli('member', 'create', '--project', project, '--org', 'beta', '--email', 'b@beta.test');
    const phone = await cli(
      'member',
      'update',
      '--project',
      project,
      '--org',
      'beta',
      '--email',
      'b@beta.test',
      '--phone',
      '12',
    );
    expect(phone.code).toBe(1);
    expect(phone.stderr).toContain('not valid');
  });
});
