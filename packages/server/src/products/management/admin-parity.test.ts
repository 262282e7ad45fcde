// Every way to administer a project (management API over HTTP, the `gatehouse` CLI, the
// in-process admin API) refuses the same bad input with the same error_type, and stores nothing
// when it refuses: organizations and members, project settings, captcha, OAuth providers, the
// RBAC policy, SSO connections and secret keys. Each path calls the same service function.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { cliOnHarness } from '../../test/cli.js';
import { AdminError } from './admin.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
const files = mkdtempSync(join(tmpdir(), 'gatehouse-parity-'));

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  rmSync(files, { recursive: true, force: true });
});

/** Runs `gatehouse …` in-process on the harness's database. */
const cli = (...argv: string[]) => cliOnHarness(h, ...argv);

/** The error_type a CLI run failed with (`error: <type>: <message>`), or its output if it did not fail. */
function cliErrorType(run: { code: number; stdout: string; stderr: string }): string {
  if (run.code === 0) return `succeeded: ${run.stdout}`;
  return /^error: ([a-z_]+): /m.exec(run.stderr)?.[1] ?? `no error_type in: ${run.stderr}`;
}

/** The error_type the in-process admin API threw, or a note that it did not throw one. */
async function adminErrorType(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'succeeded';
  } catch (error) {
    return error instanceof AdminError ? error.errorType : `threw ${String(error)}`;
  }
}

async function organizationsWithSlug(slug: string): Promise<number> {
  const rows = await h.db
    .selectFrom('organizations')
    .select('id')
    .where('project_id', '=', h.project.project_id)
    .where('slug', 'in', [slug, slug.toLowerCase()])
    .execute();
  return rows.length;
}

async function membersWithEmail(email: string): Promise<number> {
  const rows = await h.db
    .selectFrom('members')
    .select('id')
    .where('project_id', '=', h.project.project_id)
    .where('email', 'in', [email, email.toLowerCase()])
    .execute();
  return rows.length;
}

describe('organization create refuses the same input on every path', () => {
  const cases: { what: string; slug: string; name?: string; domain?: string; type: string }[] = [
    { what: 'a slug with spaces and symbols', slug: 'BAD SLUG!!', type: 'invalid_request' },
    { what: 'a one-character slug', slug: 'a', type: 'invalid_request' },
    { what: 'a slug over 128 characters', slug: 'x'.repeat(129), type: 'invalid_request' },
    {
      what: 'a public mail domain to join by',
      slug: 'webmail-co',
      domain: 'gmail.com',
      type: 'invalid_email_domain',
    },
    {
      what: 'a name over 128 characters',
      slug: 'long-name',
      name: 'n'.repeat(129),
      type: 'invalid_request',
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.what}`, async () => {
      const name = c.name ?? 'Parity';
      const domains = c.domain ? [c.domain] : [];
      const api = await h.call(ENDPOINTS.createOrganization, {
        body: {
          organization_name: name,
          organization_slug: c.slug,
          email_allowed_domains: domains,
        },
      });
      expect(api.ok).toBe(false);
      const expected = c.type;
      expect(api.error?.error_type).toBe(expected);

      const run = await cli(
        'org',
        'create',
        '--project',
        h.project.project_id,
        '--name',
        name,
        '--slug',
        c.slug,
        ...domains.flatMap((d) => ['--jit-domain', d]),
      );
      expect(cliErrorType(run)).toBe(expected);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');

      const viaAdmin = await adminErrorType(() =>
        h.admin.createOrganization(h.project.project_id, {
          organization_name: name,
          organization_slug: c.slug,
          email_allowed_domains: domains,
        }),
      );
      expect(viaAdmin).toBe(expected);

      expect(await organizationsWithSlug(c.slug)).toBe(0);
    });
  }

  it('accepts a valid slug on every path, and then each says the slug is taken', async () => {
    const body = { organization_name: 'Parity', organization_slug: 'parity-ok' };
    expectOk(await h.call(ENDPOINTS.createOrganization, { body }));
    const api = await h.call(ENDPOINTS.createOrganization, { body });
    expect(api.error?.error_type).toBe('organization_slug_taken');
    const args = ['--project', h.project.project_id, '--name', 'Parity', '--slug', 'parity-ok'];
    expect(cliErrorType(await cli('org', 'create', ...args))).toBe('organization_slug_taken');
    expect(await adminErrorType(() => h.admin.createOrganization(h.project.project_id, body))).toBe(
      'organization_slug_taken',
    );
    expect(await organizationsWithSlug('parity-ok')).toBe(1);
  });
});

describe('member create refuses the same input on every path, storing nothing', () => {
  const cases: { what: string; email: string; password?: string; type: string }[] = [
    { what: 'an address that is not one', email: 'not an email', type: 'invalid_email' },
    { what: 'an address without a domain', email: 'ada@', type: 'invalid_email' },
    {
      what: 'a password the policy refuses',
      email: 'weak@acme.test',
      password: 'weak',
      type: 'weak_password',
    },
    {
      what: 'a breached password',
      email: 'breached@acme.test',
      password: 'password1',
      type: 'weak_password',
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.what}`, async () => {
      const password = c.password === undefined ? {} : { password: c.password };
      const api = await h.call(ENDPOINTS.createMember, {
        params: { organization_id: h.org.organization_id },
        body: { email_address: c.email, ...password },
      });
      expect(api.ok).toBe(false);
      expect(api.error?.error_type).toBe(c.type);

      const run = await cli(
        'member',
        'create',
        '--project',
        h.project.project_id,
        '--org',
        'acme',
        '--email',
        c.email,
        ...(c.password === undefined ? [] : ['--password', c.password]),
      );
      expect(cliErrorType(run)).toBe(c.type);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('Member created');

      const viaAdmin = await adminErrorType(() =>
        h.admin.createMember(h.project.project_id, h.org.organization_id, {
          email_address: c.email,
          ...password,
        }),
      );
      expect(viaAdmin).toBe(c.type);

      expect(await membersWithEmail(c.email)).toBe(0);
    });
  }

  it('creates a member with a strong password on every path, password set', async () => {
    const password = 'Quartz-Lantern-Orbit-42';
    const api = expectOk(
      await h.call(ENDPOINTS.createMember, {
        params: { organization_id: h.org.organization_id },
        body: { email_address: 'api@acme.test', password },
      }),
    );
    expect(api.member.member_password_id).toMatch(/^member-password-test-/);

    const run = await cli(
      'member',
      'create',
      ...['--project', h.project.project_id, '--org', 'acme', '--email', 'cli@acme.test'],
      ...['--password', password],
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^password_id: member-password-test-/m);

    const viaAdmin = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'admin@acme.test',
      password,
    });
    expect(viaAdmin.member_password_id).toMatch(/^member-password-test-/);

    for (const email of ['api@acme.test', 'cli@acme.test', 'admin@acme.test']) {
      const signedIn = await h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: email,
          password,
          session_duration_minutes: 60,
        },
      });
      expect(signedIn.status, email).toBe(200);
    }
  });
});

/**
 * Sends one refused input through the three paths and expects each to name `type`: the API's
 * answer, the CLI's `error: <type>: …` with exit 1 and nothing on stdout, the admin's AdminError.
 */
async function expectRefusedEverywhere(
  type: string,
  paths: {
    api: () => Promise<{ ok: boolean; error?: { error_type: string } | undefined }>;
    cli: string[];
    admin: () => Promise<unknown>;
  },
): Promise<void> {
  const api = await paths.api();
  expect(api.ok).toBe(false);
  expect(api.error?.error_type).toBe(type);
  const run = await cli(...paths.cli);
  expect([paths.cli, cliErrorType(run)]).toEqual([paths.cli, type]);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(await adminErrorType(paths.admin)).toBe(type);
}

const projectArgs = () => ['--project', h.project.project_id];

describe('project settings refuse the same input on every path, changing nothing', () => {
  const cases: {
    what: string;
    type: string;
    body: Record<string, unknown>;
    flags: string[];
    /** The same change in the server's own terms (`Admin.updateProject`). */
    change: Record<string, unknown>;
  }[] = [
    {
      what: 'a redirect URL that is not http(s)',
      type: 'invalid_redirect_url',
      body: { redirect_urls: { login: ['ftp://files.example.com/in'] } },
      flags: ['--redirect-url', 'login=ftp://files.example.com/in'],
      change: { redirectUrls: { login: ['ftp://files.example.com/in'] } },
    },
    {
      what: 'a relative redirect URL',
      type: 'invalid_redirect_url',
      body: { redirect_urls: { signup: ['/in'] } },
      flags: ['--redirect-url', 'signup=/in'],
      change: { redirectUrls: { signup: ['/in'] } },
    },
    {
      what: 'an origin with a path',
      type: 'invalid_request',
      body: { authorized_origins: ['https://app.example.com/login'] },
      flags: ['--authorized-origin', 'https://app.example.com/login'],
      change: { authorizedOrigins: ['https://app.example.com/login'] },
    },
    {
      what: 'a slug pattern without {{slug}}',
      type: 'invalid_request',
      body: { slug_pattern: 'https://app.example.com/login' },
      flags: ['--slug-pattern', 'https://app.example.com/login'],
      change: { slugPattern: 'https://app.example.com/login' },
    },
    {
      what: 'a session lifetime under five minutes',
      type: 'invalid_request',
      body: { session_max_lifetime_minutes: 4 },
      flags: ['--session-max-lifetime-minutes', '4'],
      change: { sessionMaxLifetimeMinutes: 4 },
    },
    {
      what: 'a LUDS complexity over 4',
      type: 'invalid_request',
      body: { password_policy: { strength_policy: 'luds', luds_complexity: 5 } },
      flags: ['--password-policy', 'luds', '--password-luds-complexity', '5'],
      change: { passwordPolicy: { strength_policy: 'luds', luds_complexity: 5 } },
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.what}`, async () => {
      const projectId = h.project.project_id;
      const before = await h.admin.projectSettings(projectId);
      await expectRefusedEverywhere(c.type, {
        api: () => h.call(ENDPOINTS.updateProject, { body: c.body }),
        cli: ['project', 'update', ...projectArgs(), ...c.flags],
        admin: () => h.admin.updateProjectSettings(projectId, c.body),
      });
      expect(await adminErrorType(() => h.admin.updateProject(projectId, c.change))).toBe(c.type);
      expect(await h.admin.projectSettings(projectId)).toEqual(before);
    });
  }

  it('refuses a bad redirect URL for a new project, from the CLI and the admin alike', async () => {
    const run = await cli(
      'project',
      'create',
      '--name',
      'Parity',
      '--redirect-url',
      'ftp://x.test',
    );
    expect(cliErrorType(run)).toBe('invalid_redirect_url');
    expect(run.stdout).toBe('');
    const viaAdmin = await adminErrorType(() =>
      h.admin.createProject({ name: 'Parity', redirectUrls: { login: ['ftp://x.test'] } }),
    );
    expect(viaAdmin).toBe('invalid_redirect_url');
  });
});

describe('captcha settings refuse the same input on every path, changing nothing', () => {
  it('refuses an unknown provider', async () => {
    const projectId = h.project.project_id;
    const before = await h.admin.captchaSettings(projectId);
    await expectRefusedEverywhere('invalid_request', {
      api: () =>
        h.call(ENDPOINTS.setCaptcha, { body: { provider: 'bogus', enabled: false } as never }),
      cli: ['captcha', 'set', ...projectArgs(), '--provider', 'bogus', '--enabled', 'false'],
      admin: () => h.admin.setCaptchaSettings(projectId, { provider: 'bogus', enabled: false }),
    });
    expect(await h.admin.captchaSettings(projectId)).toEqual(before);
  });

  it('refuses to turn captcha on without its keys', async () => {
    const projectId = h.project.project_id;
    await expectRefusedEverywhere('invalid_request', {
      api: () => h.call(ENDPOINTS.setCaptcha, { body: { enabled: true } }),
      cli: ['captcha', 'set', ...projectArgs()],
      admin: () => h.admin.setCaptchaSettings(projectId, { enabled: true }),
    });
    expect((await h.admin.captchaSettings(projectId)).enabled).toBe(false);
  });
});

describe('OAuth provider settings refuse the same input on every path, changing nothing', () => {
  it('refuses to turn a provider on without its client', async () => {
    const projectId = h.project.project_id;
    await expectRefusedEverywhere('invalid_request', {
      api: () =>
        h.call(ENDPOINTS.oauthSetProvider, {
          params: { provider: 'google' },
          body: { enabled: true },
        }),
      cli: ['oauth', 'set', ...projectArgs(), '--provider', 'google'],
      admin: () => h.admin.setOAuthProvider(projectId, 'google', { enabled: true }),
    });
    const google = (await h.admin.oauthProviders(projectId)).find((p) => p.provider === 'google');
    expect(google?.enabled).toBe(false);
  });

  it('refuses a provider it does not know', async () => {
    const projectId = h.project.project_id;
    await expectRefusedEverywhere('invalid_request', {
      api: () => h.call(ENDPOINTS.oauthSetProvider, { params: { provider: 'yahoo' }, body: {} }),
      cli: ['oauth', 'set', ...projectArgs(), '--provider', 'yahoo', '--enabled', 'false'],
      admin: () => h.admin.setOAuthProvider(projectId, 'yahoo', { enabled: false }),
    });
  });

  it('refuses a non-https issuer', async () => {
    const projectId = h.project.project_id;
    const client = {
      enabled: true,
      client_id: 'c',
      client_secret: 's',
      issuer: 'http://idp.example.com',
    };
    await expectRefusedEverywhere('oidc_discovery_failed', {
      api: () =>
        h.call(ENDPOINTS.oauthSetProvider, { params: { provider: 'microsoft' }, body: client }),
      cli: [
        ...['oauth', 'set', ...projectArgs(), '--provider', 'microsoft', '--client-id', 'c'],
        ...['--client-secret', 's', '--issuer', 'http://idp.example.com'],
      ],
      admin: () => h.admin.setOAuthProvider(projectId, 'microsoft', client),
    });
  });
});

describe('the RBAC policy refuses the same input on every path, changing nothing', () => {
  const reports = { resource_id: 'reports', description: '', actions: ['read'] };
  const viewer = (actions: string[]) => ({
    role_id: 'viewer',
    description: '',
    permissions: [{ resource_id: 'reports', actions }],
  });
  const cases: { what: string; policy: { roles: unknown[]; resources: unknown[] } }[] = [
    {
      what: 'a permission naming an action the resource lacks',
      policy: { roles: [viewer(['delete'])], resources: [reports] },
    },
    {
      what: 'a role listed twice',
      policy: { roles: [viewer(['read']), viewer(['read'])], resources: [reports] },
    },
    {
      what: 'a permission naming a resource that does not exist',
      policy: { roles: [viewer(['read'])], resources: [] },
    },
    {
      what: 'a role id that is not one',
      policy: { roles: [{ ...viewer(['read']), role_id: 'a b' }], resources: [reports] },
    },
    {
      what: 'an action that is not one',
      policy: { roles: [viewer(['read'])], resources: [{ ...reports, actions: ['read it!'] }] },
    },
  ];

  for (const [i, c] of cases.entries()) {
    it(`refuses ${c.what}`, async () => {
      const projectId = h.project.project_id;
      const before = await h.admin.rbacPolicy(projectId);
      const file = join(files, `policy-${i}.json`);
      writeFileSync(file, JSON.stringify(c.policy));
      await expectRefusedEverywhere('invalid_request', {
        api: () => h.call(ENDPOINTS.rbacPolicySet, { body: c.policy as never }),
        cli: ['rbac', 'set', ...projectArgs(), '--file', file],
        admin: () => h.admin.setRbacPolicy(projectId, c.policy as never),
      });
      expect(await h.admin.rbacPolicy(projectId)).toEqual(before);
    });
  }
});

describe('SSO, secret keys and members name the same missing thing on every path', () => {
  it('an SSO connection list of an organization that does not exist', async () => {
    const projectId = h.project.project_id;
    const organizationId = 'organization-test-00000000-0000-4000-8000-000000000000';
    await expectRefusedEverywhere('organization_not_found', {
      api: () => h.call(ENDPOINTS.ssoList, { params: { organization_id: organizationId } }),
      cli: ['sso', 'list', ...projectArgs(), '--org', organizationId],
      admin: () => h.admin.listSsoConnections(projectId, organizationId),
    });
  });

  it('an OIDC connection whose issuer is not https', async () => {
    const projectId = h.project.project_id;
    const organizationId = h.org.organization_id;
    const input = { issuer: 'http://idp.example.com', client_id: 'c', client_secret: 's' };
    await expectRefusedEverywhere('oidc_discovery_failed', {
      api: () =>
        h.call(ENDPOINTS.ssoCreateOidc, {
          params: { organization_id: organizationId },
          body: input,
        }),
      cli: [
        ...['sso', 'create-oidc', ...projectArgs(), '--org', 'acme', '--issuer', input.issuer],
        ...['--client-id', 'c', '--client-secret', 's'],
      ],
      admin: () => h.admin.createOidcConnection(projectId, organizationId, input),
    });
    const list = await h.admin.listSsoConnections(projectId, organizationId);
    expect(list.oidc_connections).toEqual([]);
  });

  it('a secret key id the project does not have', async () => {
    const projectId = h.project.project_id;
    const secretId = 'secret-test-00000000-0000-4000-8000-000000000000';
    await expectRefusedEverywhere('secret_not_found', {
      api: () => h.call(ENDPOINTS.deleteSecret, { params: { secret_id: secretId } }),
      cli: ['secret', 'delete', ...projectArgs(), '--secret', secretId],
      admin: () => h.admin.deleteSecret(projectId, secretId),
    });
  });

  it('a phone number that is not one, for a member update', async () => {
    const projectId = h.project.project_id;
    const { organization_id, member_id } = h.member;
    await expectRefusedEverywhere('invalid_phone_number', {
      api: () =>
        h.call(ENDPOINTS.updateMember, {
          params: { organization_id, member_id },
          body: { mfa_phone_number: 'not a phone' },
        }),
      cli: ['member', 'update', ...projectArgs(), '--member', member_id, '--phone', 'not a phone'],
      admin: () => h.admin.updateMember(projectId, member_id, { mfa_phone_number: 'not a phone' }),
    });
  });
});
