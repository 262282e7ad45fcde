// `gatehouse member invite`: the CLI, the in-process admin interface and the management API invite
// alike and refuse an active member with the same error_type; the CLI's e-mail goes where the
// server's would (without SMTP, the dev inbox).
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliOnHarness } from '../test/cli.js';
import { AdminError } from '../products/management/admin.js';
import { startHarness, type Harness } from '../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Runs `gatehouse …` in-process on the harness's database. */
const cli = (...argv: string[]) => cliOnHarness(h, ...argv);

describe('gatehouse member invite', () => {
  it('invites by organization slug, with roles, a name and a language, and sends the e-mail', async () => {
    const run = await cli(
      'member',
      'invite',
      '--project',
      h.project.project_id,
      '--org',
      'acme',
      '--email',
      'Nell@Elsewhere.example',
      '--name',
      'Nell',
      '--role',
      'admin',
      '--locale',
      'es',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Invitation sent\.\nmember_id: member-test-/);
    expect(run.stdout).toContain('status:    invited\n');
    const member = await h.admin.getMemberByEmail(
      h.project.project_id,
      h.org.organization_id,
      'nell@elsewhere.example',
    );
    expect(member).toMatchObject({ status: 'invited', name: 'Nell' });
    expect(member?.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    const sent = await h.admin.listOutbox({ limit: 20 });
    expect(sent.find((m) => m.to === 'nell@elsewhere.example')?.subject).toBe(
      'Te han invitado a unirte a Acme',
    );
  });

  it('refuses an active member as the management API and the admin interface do', async () => {
    const run = await cli(
      'member',
      'invite',
      '--project',
      h.project.project_id,
      '--org',
      h.org.organization_id,
      '--email',
      'ada@acme.test',
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^error: member_already_active: /m);
    const api = await h.call(ENDPOINTS.backendMagicLinksInvite, {
      body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
    });
    expect(api.error?.error_type).toBe('member_already_active');
    const admin = await h.admin
      .inviteMember(h.project.project_id, h.org.organization_id, { email_address: 'ada@acme.test' })
      .then(
        () => 'succeeded',
        (error: unknown) => (error instanceof AdminError ? error.errorType : String(error)),
      );
    expect(admin).toBe('member_already_active');
  });

  it('needs --org and --email', async () => {
    const run = await cli('member', 'invite', '--project', h.project.project_id, '--org', 'acme');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--email/);
  });
});
