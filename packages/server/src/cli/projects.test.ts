// `gatehouse project show|update` against a temporary SQLite database, then a server over the same
// database: bootstrap and the management API see what the command stored.
import type { BootstrapData, Envelope, ProjectResult } from '@gatehouse/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../http/app.js';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli, databaseUrl } = cliOnTempDatabase('gatehouse-cli-project-');
const field = (stdout: string, name: string) =>
  new RegExp(`^${name.replace(/\./g, '\\.')}:\\s+(.*)$`, 'm').exec(stdout)?.[1] ?? '';
let projectId = '';
let publicToken = '';
let secret = '';

beforeAll(async () => {
  const created = await cli(
    'project',
    'create',
    '--name',
    'Settings CLI',
    '--origin',
    'https://app.example.com',
    '--redirect-url',
    'https://app.example.com/authenticate',
  );
  expect(created.code).toBe(0);
  projectId = field(created.stdout, 'project_id');
  publicToken = field(created.stdout, 'public_token');
  secret = field(created.stdout, 'secret');
});

describe('gatehouse project show', () => {
  it('prints the settings, never the secret', async () => {
    const shown = await cli('project', 'show', '--project', projectId);
    expect(shown.code).toBe(0);
    expect(field(shown.stdout, 'authorized_origins')).toBe('https://app.example.com');
    expect(field(shown.stdout, 'redirect_urls.login')).toBe('https://app.example.com/authenticate');
    expect(field(shown.stdout, 'redirect_urls.reset_password')).toBe('(none)');
    expect(field(shown.stdout, 'slug_pattern')).toBe('(none)');
    expect(shown.stdout).not.toContain(secret);
    const unknown = await cli('project', 'show', '--project', 'project-test-nope');
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('No project')]);
  });
});

describe('gatehouse project update', () => {
  it('changes the settings, which bootstrap and the management API then show', async () => {
    const updated = await cli(
      'project',
      'update',
      '--project',
      projectId,
      '--slug-pattern',
      'https://app.example.com/{{slug}}/login',
      '--pkce-required-for-email-magic-links',
      'true',
      '--pkce-required-for-sso',
      'true',
      '--authorized-origin',
      'https://app.example.com',
      '--authorized-origin',
      'https://admin.example.com:443',
      '--redirect-url',
      'reset_password=https://app.example.com/reset',
      '--redirect-url',
      'discovery=https://app.example.com/discovery',
      '--create-organization-enabled',
      'true',
      '--password-policy',
      'luds',
      '--password-luds-complexity',
      '2',
      '--password-luds-minimum-count',
      '14',
      '--session-max-lifetime-minutes',
      '720',
    );
    expect([updated.code, updated.stderr]).toEqual([0, '']);
    expect(updated.stdout).toContain('Project updated.');
    expect(field(updated.stdout, 'session_max_lifetime_minutes')).toBe('720');
    expect(field(updated.stdout, 'authorized_origins')).toBe(
      'https://app.example.com https://admin.example.com',
    );
    // Kinds not given keep their lists.
    expect(field(updated.stdout, 'redirect_urls.login')).toBe(
      'https://app.example.com/authenticate',
    );
    expect(field(updated.stdout, 'redirect_urls.reset_password')).toBe(
      'https://app.example.com/reset',
    );

    const app = await createServer({ databaseUrl, devInbox: true });
    try {
      const boot = await app.inject({
        method: 'GET',
        url: `/sdk/v1/projects/bootstrap/${publicToken}`,
        headers: { origin: 'https://admin.example.com' },
      });
      expect(boot.statusCode).toBe(200);
      expect(boot.json<Envelope<BootstrapData>>().data).toMatchObject({
        slug_pattern: 'https://app.example.com/{{slug}}/login',
        pkce_required_for_email_magic_links: true,
        pkce_required_for_password_resets: false,
        pkce_required_for_oauth: false,
        pkce_required_for_sso: true,
        create_organization_enabled: true,
        password_config: { luds_complexity: 2, luds_minimum_count: 14 },
      });
      const mgmt = await app.inject({
        method: 'GET',
        url: '/v1/b2b/project',
        headers: {
          authorization: `Basic ${Buffer.from(`${projectId}:${secret}`).toString('base64')}`,
        },
      });
      expect(mgmt.json<ProjectResult>().project).toMatchObject({
        authorized_origins: ['https://app.example.com', 'https://admin.example.com'],
        redirect_urls: {
          login: ['https://app.example.com/authenticate'],
          signup: ['https://app.example.com/authenticate'],
          discovery: ['https://app.example.com/discovery'],
          reset_password: ['https://app.example.com/reset'],
        },
      });
    } finally {
      await app.close();
    }

    // A bare --redirect-url is for login, signup and discovery; `none` removes the pattern.
    const again = await cli(
      'project',
      'update',
      '--project',
      projectId,
      '--redirect-url',
      'https://new.example.com/auth',
      '--slug-pattern',
      'none',
      '--clear-authorized-origins',
    );
    expect(again.code).toBe(0);
    for (const kind of ['login', 'signup', 'discovery']) {
      expect(field(again.stdout, `redirect_urls.${kind}`)).toBe('https://new.example.com/auth');
    }
    expect(field(again.stdout, 'redirect_urls.reset_password')).toBe(
      'https://app.example.com/reset',
    );
    expect(field(again.stdout, 'slug_pattern')).toBe('(none)');
    expect(field(again.stdout, 'authorized_origins')).toBe('(none)');
    // The policy stays LUDS when only a number changes.
    const numbers = await cli(
      'project',
      'update',
      '--project',
      projectId,
      '--password-luds-minimum-count',
      '9',
    );
    expect(field(numbers.stdout, 'password_policy')).toBe('luds');
    expect(field(numbers.stdout, 'password_luds_complexity')).toBe('2');
    expect(field(numbers.stdout, 'password_luds_minimum_count')).toBe('9');
  });

  it('refuses invalid settings (usage mistakes exit 2, refusals 1) and changes nothing', async () => {
    const before = (await cli('project', 'show', '--project', projectId)).stdout;
    // Exit 1 with the error_type PUT /v1/b2b/project answers: the same checks refuse them.
    const refusals: [string[], number, string][] = [
      [['--slug-pattern', 'https://app.example.com/login'], 1, 'invalid_request: slug_pattern'],
      [
        ['--authorized-origin', 'https://a.example/path'],
        1,
        'invalid_request: authorized_origins[0]',
      ],
      [['--redirect-url', 'login=/relative'], 1, 'invalid_redirect_url: redirect_urls.login[0]'],
      [['--password-luds-complexity', '5'], 1, 'invalid_request: password_policy.luds_complexity'],
      [['--session-max-lifetime-minutes', '4'], 1, 'invalid_request: session_max_lifetime'],
      // Exit 2: the command line itself is wrong.
      [['--password-luds-minimum-count', 'many'], 2, 'must be a whole number'],
      [['--password-policy', 'strong'], 2, 'must be one of none, zxcvbn, luds'],
      [['--pkce-required-for-oauth', 'yes'], 2, 'must be one of true, false'],
      [
        ['--authorized-origin', 'https://a.example', '--clear-authorized-origins'],
        2,
        'either --authorized-origin or --clear-authorized-origins',
      ],
      // A valid change beside a refused one is not stored either.
      [
        ['--create-organization-enabled', 'false', '--redirect-url', 'signup=nope'],
        1,
        'invalid_redirect_url',
      ],
    ];
    for (const [args, code, message] of refusals) {
      const res = await cli('project', 'update', '--project', projectId, ...args);
      expect([args, res.code]).toEqual([args, code]);
      expect(res.stderr).toContain(message);
      expect(res.stderr).not.toMatch(/^\s+at /m);
    }
    expect((await cli('project', 'show', '--project', projectId)).stdout).toBe(before);
    const unknown = await cli('project', 'update', '--project', 'project-test-nope');
    expect(unknown.code).toBe(2);
  });
});
