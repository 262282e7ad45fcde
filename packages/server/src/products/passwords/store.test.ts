// The password sign-in's one read of a member, its roles, linked identities and password, against
// the separate reads it replaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordLink } from '../../auth/federated/registrations.js';
import { ADMIN_ROLE, MEMBER_ROLE } from '../../tenancy/rbac/policy.js';
import { memberByEmail } from '../../tenancy/members/store.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { memberWithPasswordByEmail, requirePasswordReset, storedPassword } from './store.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** What the separate reads give for this address in this organization. */
async function separately(organizationId: string, email: string) {
  const member = await memberByEmail(h.db, organizationId, email);
  return member ? { member, password: await storedPassword(h.db, member.member_id) } : null;
}

describe('memberWithPasswordByEmail', () => {
  it('gives the member with every role, linked identity and its password, as the separate reads', async () => {
    const member = await h.addMember('joined@acme.test', [ADMIN_ROLE]);
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: 'Quartz-Lantern-Orbit-42',
    });
    const linked = await recordLink(
      h.db,
      {
        project_id: h.project.project_id,
        organization_id: member.organization_id,
        member_id: member.member_id,
        email: member.email_address,
      },
      { provider: 'google', issuer: 'https://accounts.google.com', subject: 'g-joined' },
      h.clock.now,
    );
    expect(linked).toBe(true);
    const found = await memberWithPasswordByEmail(h.db, h.org.organization_id, 'joined@acme.test');
    expect(found?.member.roles.map((r) => r.role_id)).toEqual(
      expect.arrayContaining([ADMIN_ROLE, MEMBER_ROLE]),
    );
    expect(found?.member.oauth_registrations).toMatchObject([{ provider_subject: 'g-joined' }]);
    expect(found?.password).toMatchObject({ resetRequired: false });
    expect(found).toEqual(await separately(h.org.organization_id, 'joined@acme.test'));

    await requirePasswordReset(h.db, h.project.project_id, [member.member_id], h.clock.now);
    const marked = await memberWithPasswordByEmail(h.db, h.org.organization_id, 'joined@acme.test');
    expect(marked?.password?.resetRequired).toBe(true);
    expect(marked).toEqual(await separately(h.org.organization_id, 'joined@acme.test'));
  });

  it('gives a member without a password with none, and no member for an unknown address', async () => {
    await h.addMember('nopassword@acme.test');
    const found = await memberWithPasswordByEmail(
      h.db,
      h.org.organization_id,
      'nopassword@acme.test',
    );
    expect(found?.password).toBeNull();
    expect(found).toEqual(await separately(h.org.organization_id, 'nopassword@acme.test'));
    expect(await memberWithPasswordByEmail(h.db, h.org.organization_id, 'ghost@acme.test')).toBe(
      null,
    );
  });

  it("never gives the same address's member of another organization", async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Globex',
      organization_slug: 'globex-joined',
    });
    const other = await h.addMember('twice@acme.test', [], org.organization_id);
    await h.addMember('twice@acme.test');
    const found = await memberWithPasswordByEmail(h.db, org.organization_id, 'twice@acme.test');
    expect(found?.member.member_id).toBe(other.member_id);
    expect(found).toEqual(await separately(org.organization_id, 'twice@acme.test'));
  });
});
