// The CLI against a temporary SQLite database: help, migrate, and creating a usable project.
import type { Envelope } from '@gatehouse/protocol';
import { ENDPOINTS, type ResponseOf } from '@gatehouse/protocol/endpoints';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { cliOnTempDatabase } from './test/cli.js';
import { createServer } from './http/app.js';

const { databaseUrl, cli } = cliOnTempDatabase('gatehouse-cli-', { fresh: true });

const field = (text: string, name: string) =>
  new RegExp(`^${name}:\\s+(\\S+)$`, 'm').exec(text)?.[1] ?? '';

describe('gatehouse CLI', () => {
  it('prints help for the tool and each command', async () => {
    expect((await cli('--help')).stdout).toContain('Usage: gatehouse <command>');
    for (const command of [
      ['serve'],
      ['migrate'],
      ['project', 'create'],
      ['org', 'create'],
      ['member', 'create'],
      ['session', 'revoke'],
    ]) {
      const res = await cli(...command, '--help');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`Usage: gatehouse ${command.join(' ')}`);
    }
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await cli('bogus')).code).toBe(2);
    const missing = await cli('project', 'create');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name is required');
    expect((await cli('project', 'create', '--name', 'x', '--bogus')).code).toBe(2);
  });

  it('migrates, creates a project, an organization and a member the server then serves', async () => {
    const migrated = await cli('migrate');
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain('0001_initial');
    expect(migrated.stderr).toContain('generated one and stored it next to the database');
    expect((await cli('migrate')).stdout).toContain('up to date');

    const project = await cli(
      'project',
      'create',
      '--name',
      'Demo',
      '--origin',
      'https://app.example.com',
      '--redirect-url',
      'https://app.example.com/auth',
      '--allow-org-creation',
    );
    expect(project.code).toBe(0);
    const projectId = field(project.stdout, 'project_id');
    const publicToken = field(project.stdout, 'public_token');
    const secret = field(project.stdout, 'secret');
    expect(projectId).toMatch(/^project-test-/);
    expect(publicToken).toMatch(/^public-token-test-/);
    expect(secret).toMatch(/^secret-test-/);

    const org = await cli(
      'org',
      'create',
      '--project',
      projectId,
      '--name',
      'Acme',
      '--slug',
      'acme',
      '--jit-domain',
      'acme.test',
    );
    expect(org.code).toBe(0);
    const member = await cli(
      'member',
      'create',
      '--project',
      projectId,
      '--org',
      'acme',
      '--email',
      'ada@acme.test',
      '--name',
      'Ada',
    );
    expect(member.code).toBe(0);
    expect(field(member.stdout, 'member_id')).toMatch(/^member-test-/);
    const dup = await cli(
      'member',
      'create',
      '--project',
      projectId,
      '--org',
      field(org.stdout, 'organization_id'),
      '--email',
      'ada@acme.test',
    );
    expect(dup.code).toBe(1);
    expect(
      (
        await cli(
          'member',
          'create',
          '--project',
          projectId,
          '--org',
          'nope',
          '--email',
          'x@acme.test',
        )
      ).code,
    ).toBe(2);

    const app = await createServer({ databaseUrl, devInbox: true });
    try {
      const member = await app.gatehouse.getMemberByEmail(
        projectId,
        field(org.stdout, 'organization_id'),
        'ada@acme.test',
      );
      expect(member?.name).toBe('Ada');
      const res = await app.inject({
        method: 'POST',
        url: '/sdk/v1/b2b/organizations/search',
        headers: {
          authorization: `Basic ${Buffer.from(`${publicToken}:${publicToken}`).toString('base64')}`,
          origin: 'https://app.example.com',
          'content-type': 'application/json',
        },
        payload: { organization_slug: 'acme' },
      });
      const found = res.json<Envelope<ResponseOf<typeof ENDPOINTS.organizationsSearch>>>();
      expect(found.data.organization?.organization_name).toBe('Acme');
      const basic = `Basic ${Buffer.from(`${projectId}:${secret}`).toString('base64')}`;
      const mgmt = await app.inject({
        method: 'GET',
        url: `/v1/b2b/organizations/${field(org.stdout, 'organization_id')}`,
        headers: { authorization: basic },
      });
      expect(mgmt.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('creates a member with a password that then signs in', async () => {
    const project = await cli('project', 'create', '--name', 'Passwords');
    const projectId = field(project.stdout, 'project_id');
    const publicToken = field(project.stdout, 'public_token');
    const org = await cli('org', 'create', '--project', projectId, '--name', 'Pw', '--slug', 'pw');
    const organizationId = field(org.stdout, 'organization_id');
    const create = (email: string, password: string) =>
      cli(
        'member',
        'create',
        '--project',
        projectId,
        '--org',
        'pw',
        '--email',
        email,
        '--password',
        password,
      );
    const created = await create('grace@pw.test', 'Quartz-Lantern-Orbit-42');
    expect(created.code).toBe(0);
    expect(field(created.stdout, 'password_id')).toMatch(/^member-password-test-/);
    const weak = await create('weak@pw.test', 'password1');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('This password may have been used on a different site');

    const app = await createServer({ databaseUrl, devInbox: true });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/sdk/v1/b2b/passwords/authenticate',
        headers: {
          authorization: `Basic ${Buffer.from(`${publicToken}:${publicToken}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        payload: {
          organization_id: organizationId,
          email_address: 'grace@pw.test',
          password: 'Quartz-Lantern-Orbit-42',
        },
      });
      expect(res.statusCode).toBe(200);
      const signedIn = res.json<Envelope<ResponseOf<typeof ENDPOINTS.passwordsAuthenticate>>>();
      expect(signedIn.data.member_authenticated).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('revokes one session by id or token, or every session of a member', async () => {
    const password = 'Quartz-Lantern-Orbit-42';
    const project = await cli('project', 'create', '--name', 'Revocations');
    const projectId = field(project.stdout, 'project_id');
    const publicToken = field(project.stdout, 'public_token');
    const org = await cli('org', 'create', '--project', projectId, '--name', 'Rv', '--slug', 'rv');
    const organizationId = field(org.stdout, 'organization_id');
    const member = await cli(
      'member',
      'create',
      '--project',
      projectId,
      '--org',
      'rv',
      '--email',
      'rita@rv.test',
      '--password',
      password,
    );
    const memberId = field(member.stdout, 'member_id');
    const revoke = (...target: string[]) =>
      cli('session', 'revoke', '--project', projectId, ...target);

    const app = await createServer({ databaseUrl, devInbox: true });
    try {
      const sdk = (path: string, payload: object, token = publicToken) =>
        app.inject({
          method: 'POST',
          url: `/sdk/v1/b2b/${path}`,
          headers: {
            authorization: `Basic ${Buffer.from(`${publicToken}:${token}`).toString('base64')}`,
            'content-type': 'application/json',
          },
          payload,
        });
      const signIn = async () => {
        const res = await sdk('passwords/authenticate', {
          organization_id: organizationId,
          email_address: 'rita@rv.test',
          password,
        });
        return res.json<{
          data: { session_token: string; member_session: { member_session_id: string } };
        }>().data;
      };
      const alive = async (token: string) =>
        (await sdk('sessions/authenticate', {}, token)).statusCode === 200;
      const [a, b, c, d] = [await signIn(), await signIn(), await signIn(), await signIn()];

      const byId = await revoke('--session', a.member_session.member_session_id);
      expect(byId.code).toBe(0);
      expect(field(byId.stdout, 'member_id')).toBe(memberId);
      expect(field(byId.stdout, 'revoked')).toBe('1');
      expect(await alive(a.session_token)).toBe(false);
      expect(await alive(b.session_token)).toBe(true);

      // Session tokens are base64url and may begin with '-': the `=` form always takes them.
      expect((await revoke(`--session-token=${b.session_token}`)).code).toBe(0);
      expect(await alive(b.session_token)).toBe(false);
      expect(await alive(c.session_token)).toBe(true);

      const all = await revoke('--member', memberId);
      expect(all.code).toBe(0);
      expect(field(all.stdout, 'revoked')).toBe('2');
      expect(await alive(c.session_token)).toBe(false);
      expect(await alive(d.session_token)).toBe(false);

      const again = await revoke('--session', a.member_session.member_session_id);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('unknown, expired or revoked');
    } finally {
      await app.close();
    }
    const none = await revoke();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('exactly one of --session, --session-token and --member');
    expect((await revoke('--session', 'x', '--member', memberId)).code).toBe(2);
  });
});

describe('gatehouse serve', () => {
  const serveDb = cliOnTempDatabase('gatehouse-cli-serve-');
  const serve = async (env: NodeJS.ProcessEnv) => {
    let stderr = '';
    const code = await runCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
      stdout: () => undefined,
      stderr: (text) => void (stderr += text),
      env: { DATABASE_URL: serveDb.databaseUrl, ...env },
    });
    return { code, stderr };
  };

  it('refuses to start without SMTP, while commands that send no mail still work', async () => {
    const refused = await serve({});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/No SMTP server is configured.*SMTP_HOST/);
    const created = await serveDb.cli('project', 'create', '--name', 'Production', '--live');
    expect(created.code).toBe(0);
  });

  it('refuses the dev inbox next to a live project, and a blanket TRUST_PROXY', async () => {
    const inbox = await serve({ GATEHOUSE_DEV_INBOX: 'true' });
    expect(inbox.code).toBe(1);
    expect(inbox.stderr).toMatch(/dev inbox.*live project/);
    const proxy = await serve({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', TRUST_PROXY: 'true' });
    expect(proxy.code).toBe(1);
    expect(proxy.stderr).toMatch(/TRUST_PROXY.*cannot be true/);
  });
});
