// The admin client against a real server: stale edits refused, the last admin kept, invitations
// resent and revoked, and sessions listed and ended, each with the signed-in member's session.
// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/"}
import { startHarness, type Harness } from '@gatehouse/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminClient } from './admin.js';
import { GatehouseAPIError } from './errors.js';
import { useSignedInClients } from './test/signed-in.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'boss@acme.test',
    roles: ['admin'],
  });
});

afterAll(async () => {
  await h.close();
});

const signedIn = useSignedInClients(() => h);

async function errorOf(call: Promise<unknown>): Promise<GatehouseAPIError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatehouseAPIError);
  return error as GatehouseAPIError;
}

describe('the admin client against a real server', () => {
  it('refuses an edit based on an updated_at that has moved, and keeps the last admin', async () => {
    const admin = createAdminClient(await signedIn('boss@acme.test'));
    const { organization } = await admin.organization.get();
    const changed = await admin.organization.update({
      organization_name: 'Acme One',
      updated_at: organization.updated_at,
    });
    expect(changed.organization.updated_at > organization.updated_at).toBe(true);
    const stale = await errorOf(
      admin.organization.update({ organization_name: 'Lost', updated_at: organization.updated_at }),
    );
    expect(stale.error_type).toBe('stale_update');
    const me = (await admin.organization.members.list({ limit: 1000 })).members.find(
      (m) => m.email_address === 'boss@acme.test',
    )!;
    const lastAdmin = await errorOf(
      admin.organization.members.update({ member_id: me.member_id, roles: [] }),
    );
    expect(lastAdmin.error_type).toBe('last_admin');
  });

  it('resends and revokes an invitation', async () => {
    const admin = createAdminClient(await signedIn('boss@acme.test'));
    const { member } = await admin.magicLinks.email.invite({ email_address: 'new@acme.test' });
    const first = await h.lastToken('new@acme.test');
    const resent = await admin.magicLinks.email.resendInvite({ member_id: member.member_id });
    expect(resent.member.status).toBe('invited');
    expect(await h.lastToken('new@acme.test')).not.toBe(first);
    const revoked = await admin.magicLinks.email.revokeInvite({ member_id: member.member_id });
    expect(revoked.member_id).toBe(member.member_id);
    const again = await errorOf(
      admin.magicLinks.email.revokeInvite({ member_id: member.member_id }),
    );
    expect(again.error_type).toBe('member_not_found');
  });

  it("lists the organization's sessions with their browser and ends a member's", async () => {
    // One page holds one signed-in member at a time (its cookie): Ada first, then the admin.
    const ada = createAdminClient(await signedIn('ada@acme.test'));
    const own = await ada.self.sessions.list();
    expect(own.member_sessions.map((s) => s.current)).toEqual([true]);
    const adaId = own.member_sessions[0]!.member_id;
    // A plain member may see their own sessions, not the organization's.
    const denied = await errorOf(ada.organization.sessions.list());
    expect(denied.error_type).toBe('unauthorized_action');

    const admin = createAdminClient(await signedIn('boss@acme.test'));
    const page = await admin.organization.sessions.list({ member_id: adaId });
    expect(page.member_sessions).toHaveLength(1);
    expect(page.member_sessions[0]).toMatchObject({
      member_session_id: own.member_sessions[0]!.member_session_id,
      email_address: 'ada@acme.test',
      current: false,
    });
    expect(page.member_sessions[0]?.user_agent).toMatch(/happy-dom|Mozilla/i);
    expect(page.member_sessions[0]?.ip_address).toBeTruthy();

    const ended = await admin.organization.sessions.revoke({ member_id: adaId });
    expect(ended.revoked_session_ids).toEqual([page.member_sessions[0]!.member_session_id]);
    const after = await admin.organization.sessions.list({ member_id: adaId });
    expect(after.member_sessions).toEqual([]);
  });
});
