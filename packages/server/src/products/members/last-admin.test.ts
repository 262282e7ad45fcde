// An organization keeps an admin (docs/protocol.md §7.10): removing, deactivating or demoting its
// last active admin from a member session, oneself included, is refused with 409 last_admin and
// changes nothing. Runs on SQLite and PostgreSQL (concurrent removals included).
import type { Member, Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin } from '../../test/mfa.js';

let h: Harness;
let count = 0;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

interface Team {
  org: Organization;
  /** Members by local part, with a session each. */
  m: Record<string, { member: Member; token: string }>;
}

/** A fresh organization with members given as `name: roles`, each signed in. */
async function team(people: Record<string, string[]>): Promise<Team> {
  const slug = `team-${++count}`;
  const org = await h.admin.createOrganization(h.project.project_id, {
    organization_name: slug,
    organization_slug: slug,
    email_allowed_domains: [`${slug}.test`],
  });
  const m: Team['m'] = {};
  for (const [name, roles] of Object.entries(people)) {
    const email = `${name}@${slug}.test`;
    const member = await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: email,
      roles,
    });
    const token = (await magicLogin(h, email, org.organization_id)).session_token;
    m[name] = { member, token };
  }
  return { org, m };
}

async function adminsOf(t: Team): Promise<string[]> {
  const found = expectOk(
    await h.call(ENDPOINTS.searchMembers, {
      body: {
        organization_ids: [t.org.organization_id],
        query: {
          operator: 'AND',
          operands: [
            { filter_name: 'member_roles', filter_value: ['admin'] },
            { filter_name: 'statuses', filter_value: ['active'] },
          ],
        },
      },
    }),
  ).members;
  return found.map((x) => x.email_address.split('@')[0]!).sort();
}

function expectLastAdmin(res: { status: number } & Parameters<typeof expectError>[0]) {
  expect(res.status).toBe(409);
  const error = expectError(res);
  expect(error.error_type).toBe('last_admin');
  expect(error.error_message).toMatch(/without an active admin/);
}

describe('the last admin', () => {
  it('cannot demote themselves, nor be demoted, while no one else is admin', async () => {
    const t = await team({ boss: ['admin'], ada: [] });
    const boss = t.m.boss!;
    const self = await h.call(ENDPOINTS.memberUpdate, {
      token: boss.token,
      params: { member_id: boss.member.member_id },
      body: { roles: [], name: 'Still boss' },
    });
    expectLastAdmin(self);
    const me = expectOk(await h.call(ENDPOINTS.memberMe, { token: boss.token })).member;
    expect(me.is_admin).toBe(true);
    expect(me.name).not.toBe('Still boss');
    // Other changes of the last admin, roles left as they are, go through.
    const renamed = expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss.token,
        params: { member_id: boss.member.member_id },
        body: { roles: ['admin'], name: 'Boss' },
      }),
    ).member;
    expect(renamed.name).toBe('Boss');
    expect(await adminsOf(t)).toEqual(['boss']);
  });

  it('cannot remove themselves, while other members can still be removed', async () => {
    const t = await team({ boss: ['admin'], ada: [] });
    const boss = t.m.boss!;
    expectLastAdmin(
      await h.call(ENDPOINTS.memberDelete, {
        token: boss.token,
        params: { member_id: boss.member.member_id },
      }),
    );
    // Their session and membership are untouched.
    expect(expectOk(await h.call(ENDPOINTS.memberMe, { token: boss.token })).member.status).toBe(
      'active',
    );
    expectOk(
      await h.call(ENDPOINTS.memberDelete, {
        token: boss.token,
        params: { member_id: t.m.ada!.member.member_id },
      }),
    );
  });

  it('may step down or leave once another member is admin', async () => {
    const t = await team({ boss: ['admin'], carol: [] });
    const boss = t.m.boss!;
    expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss.token,
        params: { member_id: t.m.carol!.member.member_id },
        body: { roles: ['admin'] },
      }),
    );
    expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss.token,
        params: { member_id: boss.member.member_id },
        body: { roles: [] },
      }),
    );
    expect(await adminsOf(t)).toEqual(['carol']);
    // Now carol is the last one.
    expectLastAdmin(
      await h.call(ENDPOINTS.memberDelete, {
        token: t.m.carol!.token,
        params: { member_id: t.m.carol!.member.member_id },
      }),
    );
  });

  it('counts only active admins: an invited admin does not keep the organization', async () => {
    const t = await team({ boss: ['admin'] });
    await h.admin.createMember(h.project.project_id, t.org.organization_id, {
      email_address: `later@${t.org.organization_slug}.test`,
      roles: ['admin'],
      status: 'invited',
    });
    expectLastAdmin(
      await h.call(ENDPOINTS.memberDelete, {
        token: t.m.boss!.token,
        params: { member_id: t.m.boss!.member.member_id },
      }),
    );
  });

  it('cannot lose admin through an e-mail role rule being dropped', async () => {
    const t = await team({ boss: [] });
    const domain = `${t.org.organization_slug}.test`;
    await h.admin.updateOrganization(h.project.project_id, t.org.organization_id, {
      rbac_email_implicit_role_assignments: [{ domain, role_id: 'admin' }],
    });
    const boss = t.m.boss!;
    expect(expectOk(await h.call(ENDPOINTS.memberMe, { token: boss.token })).member.is_admin).toBe(
      true,
    );
    const drop = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: boss.token,
      body: { rbac_email_implicit_role_assignments: [], organization_name: 'Renamed' },
    });
    expectLastAdmin(drop);
    const org = expectOk(
      await h.call(ENDPOINTS.organizationMe, { token: boss.token }),
    ).organization;
    expect(org.rbac_email_implicit_role_assignments).toEqual([{ domain, role_id: 'admin' }]);
    expect(org.organization_name).toBe(t.org.organization_name);
  });

  it('lets only one of two admins removing each other at the same time succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const t = await team({ a: ['admin'], b: ['admin'] });
      const a = t.m.a!;
      const b = t.m.b!;
      const answers = await Promise.all([
        h.call(ENDPOINTS.memberDelete, {
          token: a.token,
          params: { member_id: b.member.member_id },
        }),
        h.call(ENDPOINTS.memberDelete, {
          token: b.token,
          params: { member_id: a.member.member_id },
        }),
      ]);
      expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
      // The other is refused: as the last admin, or because its own session ended with it.
      const refused = answers.find((x) => x.status !== 200)!;
      expect(['last_admin', 'session_not_found']).toContain(expectError(refused).error_type);
      const alive = await Promise.all(
        [a, b].map((x) => h.call(ENDPOINTS.memberMe, { token: x.token })),
      );
      expect(alive.filter((x) => x.status === 200 && expectOk(x).member.is_admin)).toHaveLength(1);
    }
  });

  it('lets only one of two admins demoting each other at the same time succeed', async () => {
    const t = await team({ a: ['admin'], b: ['admin'] });
    const a = t.m.a!;
    const b = t.m.b!;
    const answers = await Promise.all([
      h.call(ENDPOINTS.memberUpdate, {
        token: a.token,
        params: { member_id: b.member.member_id },
        body: { roles: [] },
      }),
      h.call(ENDPOINTS.memberUpdate, {
        token: b.token,
        params: { member_id: a.member.member_id },
        body: { roles: [] },
      }),
    ]);
    expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
    const refused = answers.find((x) => x.status !== 200)!;
    // Refused as the last admin, or because the refused caller had just lost the permission.
    expect(['last_admin', 'unauthorized_action']).toContain(expectError(refused).error_type);
    expect(await adminsOf(t)).toHaveLength(1);
  });

  it('checks the credential, the permission and the organization first', async () => {
    const t = await team({ boss: ['admin'], ada: [] });
    const other = await team({ lone: ['admin'] });
    const boss = t.m.boss!;
    // A member without the permission learns nothing about who is admin.
    const denied = await h.call(ENDPOINTS.memberDelete, {
      token: t.m.ada!.token,
      params: { member_id: boss.member.member_id },
    });
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    // Another organization's last admin is not found, rather than protected.
    for (const res of [
      await h.call(ENDPOINTS.memberDelete, {
        token: boss.token,
        params: { member_id: other.m.lone!.member.member_id },
      }),
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss.token,
        params: { member_id: other.m.lone!.member.member_id },
        body: { roles: [] },
      }),
    ]) {
      expect(expectError(res).error_type).toBe('member_not_found');
    }
    expect(await adminsOf(other)).toEqual(['lone']);
    const secret = await h.call(ENDPOINTS.memberDelete, {
      authorization: basic(h.project.project_id, h.project.secret),
      params: { member_id: boss.member.member_id },
    });
    expect(secret.status).toBe(401);
    expect(await adminsOf(t)).toEqual(['boss']);
  });

  it('does not bind the host: the management API may still remove the last admin', async () => {
    const t = await team({ boss: ['admin'] });
    expectOk(
      await h.call(ENDPOINTS.deleteMember, {
        params: { organization_id: t.org.organization_id, member_id: t.m.boss!.member.member_id },
      }),
    );
  });
});
