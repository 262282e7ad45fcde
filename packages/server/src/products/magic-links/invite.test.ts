// Invitations (§7.1): the management API's and a member session's invite, the e-mail, its link
// and its lifetime, and who may invite whom where. Accepting them: invite-accept.test.ts.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, type Harness } from '../../test/harness.js';
import { useInviteFixture, type InviteBody } from './invite-fixture.js';

const { fixture, invite, accept, statusOf } = useInviteFixture();
let h: Harness;
let boss: string;
beforeAll(() => {
  ({ h, boss } = fixture);
});

/** A member session's invite. */
const sdkInvite = (token: string, body: RequestOf<typeof ENDPOINTS.magicLinksInvite>) =>
  h.call(ENDPOINTS.magicLinksInvite, { body, token });
const lastMail = async (to: string) => {
  const message = (await h.admin.listOutbox({ limit: 100 })).find((m) => m.to === to);
  if (!message) throw new Error(`no mail to ${to}`);
  return { message, url: new URL(message.links[0] ?? '') };
};
const mailCount = async (to: string) =>
  (await h.admin.listOutbox({ limit: 500 })).filter((m) => m.to === to).length;

describe('management invite', () => {
  it('invites a new address: an invited member, and a week-long link to the signup URL', async () => {
    const data = expectOk(
      await invite({
        email_address: 'Grace@Elsewhere.example',
        name: 'Grace',
        trusted_metadata: { plan: 'gold' },
        untrusted_metadata: { theme: 'dark' },
      }),
    );
    expect(data.member.status).toBe('invited');
    expect(data.member_id).toBe(data.member.member_id);
    expect(data.member).toMatchObject({
      email_address: 'grace@elsewhere.example',
      name: 'Grace',
      email_address_verified: false,
      trusted_metadata: { plan: 'gold' },
      untrusted_metadata: { theme: 'dark' },
    });
    expect(data.organization.organization_id).toBe(h.org.organization_id);

    const { message, url } = await lastMail('grace@elsewhere.example');
    expect(message.subject).toBe('You are invited to join Acme');
    expect(message.text).toContain('expires in 7 days');
    expect(url.origin + url.pathname).toBe('http://localhost:3000/authenticate');
    expect(url.searchParams.get('stytch_token_type')).toBe('multi_tenant_magic_links');
    const row = await h.db
      .selectFrom('tokens')
      .select(['created_at', 'expires_at'])
      .where('email', '=', 'grace@elsewhere.example')
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(7 * 24 * 3600_000);

    // Accepting makes the member active with a verified address and signs them in, once.
    const token = url.searchParams.get('token') ?? '';
    const session = expectSession(await accept(token));
    expect(session.member_id).toBe(data.member_id);
    expect(session.member.status).toBe('active');
    expect(session.member.email_address_verified).toBe(true);
    const again = await accept(token);
    expect([again.status, again.error?.error_type]).toEqual([404, 'magic_link_not_found']);
  });

  it('writes in the locale given, then in the language the member was invited in', async () => {
    expectOk(await invite({ email_address: 'lucia@elsewhere.example', locale: 'es' }));
    const spanish = await lastMail('lucia@elsewhere.example');
    expect(spanish.message.subject).toBe('Te han invitado a unirte a Acme');
    expect(spanish.url.searchParams.get('locale')).toBe('es');
    expectOk(await invite({ email_address: 'lucia@elsewhere.example' }));
    expect((await lastMail('lucia@elsewhere.example')).message.subject).toBe(
      'Te han invitado a unirte a Acme',
    );
    expectOk(await invite({ email_address: 'otto@elsewhere.example', locale: 'de' }));
    expect((await lastMail('otto@elsewhere.example')).message.subject).toBe(
      'You are invited to join Acme',
    );
  });

  it('invites a pending or invited member again, and refuses an active one', async () => {
    const pending = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'pat@elsewhere.example',
      status: 'pending',
    });
    const first = expectOk(await invite({ email_address: 'pat@elsewhere.example', name: 'Pat' }));
    expect([first.member_id, first.member.status, first.member.name]).toEqual([
      pending.member_id,
      'invited',
      'Pat',
    ]);
    const second = expectOk(await invite({ email_address: 'pat@elsewhere.example' }));
    expect([second.member_id, second.member.name]).toEqual([pending.member_id, 'Pat']);

    const before = await mailCount('ada@acme.test');
    const active = await invite({ email_address: 'ada@acme.test' });
    expect([active.status, active.error?.error_type]).toEqual([400, 'member_already_active']);
    expect(active.error?.error_message).toMatch(/active member/);
    expect(await mailCount('ada@acme.test')).toBe(before);
  });

  it('lets the link live invite_expiration_minutes, 5 minutes to a week', async () => {
    expectOk(
      await invite({ email_address: 'brief@elsewhere.example', invite_expiration_minutes: 5 }),
    );
    const token = await h.lastToken('brief@elsewhere.example');
    expect((await lastMail('brief@elsewhere.example')).message.text).toContain('5 minutes');
    h.clock.advance(5 * 60_000 + 1000);
    const late = await accept(token);
    expect([late.status, late.error?.error_type]).toEqual([404, 'magic_link_not_found']);
    expect(await statusOf('brief@elsewhere.example')).toBe('invited');
    for (const minutes of [4, 10_081]) {
      const res = await invite({
        email_address: 'bounds@elsewhere.example',
        invite_expiration_minutes: minutes,
      });
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
    expect(await statusOf('bounds@elsewhere.example')).toBeNull();
  });

  it('refuses a redirect URL off the allow-list, unknown roles and foreign inviters, storing nothing', async () => {
    const refusals: [InviteBody | Omit<InviteBody, 'email_address'>, number, string][] = [
      [{ invite_redirect_url: 'https://evil.example/authenticate' }, 400, 'invalid_redirect_url'],
      [{ roles: ['no-such-role'] }, 400, 'invalid_request'],
      [
        { invited_by_member_id: 'member-test-00000000-0000-4000-8000-000000000000' },
        404,
        'member_not_found',
      ],
      [{ email_address: 'not an address' }, 400, 'invalid_email'],
    ];
    for (const [extra, status, type] of refusals) {
      const res = await invite({ email_address: 'refused@elsewhere.example', ...extra });
      expect([res.status, res.error?.error_type]).toEqual([status, type]);
    }
    expect(await statusOf('refused@elsewhere.example')).toBeNull();
    // The URL's own query is kept on an allow-listed one.
    expectOk(
      await invite({
        email_address: 'kept@elsewhere.example',
        invite_redirect_url: 'http://localhost:3000/authenticate?team=7',
        invited_by_member_id: h.member.member_id,
      }),
    );
    expect((await lastMail('kept@elsewhere.example')).url.searchParams.get('team')).toBe('7');
  });

  it("cannot invite into another project's organization", async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    const theirs = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Theirs',
      organization_slug: 'theirs',
    });
    const res = await invite({
      organization_id: theirs.organization_id,
      email_address: 'mole@elsewhere.example',
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
    const theirMember = await h.admin.getMemberByEmail(
      other.project_id,
      theirs.organization_id,
      'mole@elsewhere.example',
    );
    expect(theirMember).toBeNull();
  });
});

describe('member-session invite', () => {
  it('lets an admin invite into their organization, with roles they hold', async () => {
    const data = expectOk(
      await sdkInvite(boss, { email_address: 'hire@elsewhere.example', roles: ['admin'] }),
    );
    expect(data.member.status).toBe('invited');
    expect(data.member.organization_id).toBe(h.org.organization_id);
    expect(data.member.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    expect((await lastMail('hire@elsewhere.example')).message.subject).toBe(
      'You are invited to join Acme',
    );
  });

  it('needs stytch.member create, and gives only roles the inviter holds', async () => {
    const plain = (await h.login('ada@acme.test')).session_token;
    const denied = await sdkInvite(plain, { email_address: 'nope@elsewhere.example' });
    expect([denied.status, denied.error?.error_type]).toEqual([403, 'unauthorized_action']);

    expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'recruiter' },
        body: { permissions: [{ resource_id: 'stytch.member', actions: ['create'] }] },
      }),
    );
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'rita@acme.test',
      roles: ['recruiter'],
    });
    const rita = (await h.login('rita@acme.test')).session_token;
    const admin = await sdkInvite(rita, {
      email_address: 'nope@elsewhere.example',
      roles: ['admin'],
    });
    expect([admin.status, admin.error?.error_type]).toEqual([403, 'unauthorized_action']);
    expect(admin.error?.error_message).toBe('Only an admin may give the admin role.');
    expect(await statusOf('nope@elsewhere.example')).toBeNull();
    const ok = expectOk(
      await sdkInvite(rita, { email_address: 'peer@elsewhere.example', roles: ['recruiter'] }),
    );
    expect(ok.member.roles.map((r) => r.role_id).sort()).toEqual(['member', 'recruiter']);
  });

  it("refuses an organization_id that is not the session's, inviting no one anywhere", async () => {
    const elsewhere = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Elsewhere',
      organization_slug: 'elsewhere-sdk',
    });
    const res = await sdkInvite(boss, {
      email_address: 'smuggled@elsewhere.example',
      organization_id: elsewhere.organization_id,
    });
    expect([res.status, res.error?.error_type]).toEqual([403, 'unauthorized_action']);
    expect(await statusOf('smuggled@elsewhere.example', elsewhere.organization_id)).toBeNull();
    expect(await statusOf('smuggled@elsewhere.example')).toBeNull();
    expect(await mailCount('smuggled@elsewhere.example')).toBe(0);
  });
});
