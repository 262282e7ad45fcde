// Every way to create organizations and members (management API over HTTP, the `gatehouse` CLI,
// the in-process admin API) refuses the same bad input with the same error_type, and stores
// nothing when it refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { runCli } from '../../cli.js';
import { AdminError } from './admin.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** Runs `gatehouse …` in-process on the harness's database. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { DATABASE_URL: h.databaseUrl, GATEHOUSE_SERVER_KEY: h.serverKey },
  });
  return { code, stdout, stderr };
}

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
