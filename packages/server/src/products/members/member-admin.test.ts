// An organization's admins managing members with their own session (docs/protocol.md §7.10):
// changing a member's directly assigned roles and reactivating a deactivated member, each under
// the project's RBAC policy, within the caller's organization only. Runs on SQLite and
// PostgreSQL (concurrent reactivations included).
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;
/** Sessions: an admin, a plain member, and a custom role that may update members only. */
let boss: string;
let plain: string;
let editor: string;
/** A member of another organization of the same project. */
let neighbour: Member;

beforeAll(async () => {
  h = await startHarness();
  expectOk(
    await h.call(ENDPOINTS.rbacResourceSet, {
      params: { resource_id: 'reports' },
      body: { actions: ['read'] },
    }),
  );
  const roles = {
    editor: [{ resource_id: 'stytch.member', actions: ['update.settings.roles', 'search'] }],
    reports: [{ resource_id: 'reports', actions: ['read'] }],
  };
  for (const [roleId, permissions] of Object.entries(roles)) {
    expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, { params: { role_id: roleId }, body: { permissions } }),
    );
  }
  await h.addMember('boss@acme.test', ['admin']);
  await h.addMember('plain@acme.test');
  await h.addMember('editor@acme.test', ['editor']);
  const sessionOf = async (email: string) => (await h.login(email)).session_token;
  boss = await sessionOf('boss@acme.test');
  plain = await sessionOf('plain@acme.test');
  editor = await sessionOf('editor@acme.test');
  const theirs = expectOk(
    await h.call(ENDPOINTS.createOrganization, {
      body: { organization_name: 'Next Door', organization_slug: 'next-door-admin' },
    }),
  ).organization;
  neighbour = await h.addMember('next@door.test', [], theirs.organization_id);
});

afterAll(async () => {
  await h?.close();
});

const roleIdsOf = (m: Member) => m.roles.map((r) => r.role_id).sort();

const setRoles = (token: string, memberId: string, roles: string[]) =>
  h.call(ENDPOINTS.memberUpdate, { token, params: { member_id: memberId }, body: { roles } });

const reactivate = (token: string, memberId: string) =>
  h.call(ENDPOINTS.memberReactivate, { token, params: { member_id: memberId } });

describe("changing a member's roles with a session", () => {
  it('lets an admin give and take away roles; `member` stays', async () => {
    const target = await h.addMember('promoted@acme.test');
    const promoted = expectOk(await setRoles(boss, target.member_id, ['admin'])).member;
    expect(roleIdsOf(promoted)).toEqual(['admin', 'member']);
    expect(promoted.is_admin).toBe(true);
    const demoted = expectOk(await setRoles(boss, target.member_id, [])).member;
    expect(roleIdsOf(demoted)).toEqual(['member']);
  });

  it('refuses a plain member with 403 unauthorized_action and changes nothing', async () => {
    const target = await h.addMember('untouched@acme.test');
    const denied = await setRoles(plain, target.member_id, ['admin']);
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const after = expectOk(
      await h.call(ENDPOINTS.getMember, {
        params: { organization_id: h.org.organization_id, member_id: target.member_id },
      }),
    ).member;
    expect(roleIdsOf(after)).toEqual(['member']);
  });

  it('lets a caller add or take away only roles they hold', async () => {
    const target = await h.addMember('reader@acme.test', ['reports']);
    // The editor may update members but holds neither admin nor reports.
    for (const roles of [['admin'], [], ['reports', 'editor', 'admin']]) {
      const denied = await setRoles(editor, target.member_id, roles);
      expect(denied.status).toBe(403);
      expect(expectError(denied).error_type).toBe('unauthorized_action');
    }
    // Giving a role they hold, with the other left as it was, is allowed.
    const given = expectOk(await setRoles(editor, target.member_id, ['reports', 'editor'])).member;
    expect(roleIdsOf(given)).toEqual(['editor', 'member', 'reports']);
  });

  it('refuses an unknown role and a malformed one with a 4xx', async () => {
    const target = await h.addMember('typo@acme.test');
    const unknown = await setRoles(boss, target.member_id, ['no-such-role']);
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    const malformed = await setRoles(boss, target.member_id, ['not a role!']);
    expect(malformed.status).toBe(400);
    expect(expectError(malformed).error_type).toBe('invalid_request');
  });

  it("answers 404 member_not_found for another organization's member", async () => {
    const res = await setRoles(boss, neighbour.member_id, ['admin']);
    expect(res.status).toBe(404);
    expect(expectError(res).error_type).toBe('member_not_found');
  });

  it('refuses a call without a session', async () => {
    const res = await h.call(ENDPOINTS.memberUpdate, {
      params: { member_id: neighbour.member_id },
      body: { roles: [] },
    });
    expect(res.status).toBe(401);
  });
});

describe('reactivating a member with a session', () => {
  async function deactivated(email: string): Promise<Member> {
    const member = await h.addMember(email);
    expectOk(
      await h.call(ENDPOINTS.memberDelete, {
        token: boss,
        params: { member_id: member.member_id },
      }),
    );
    return member;
  }

  it('makes a deactivated member active again, and answers an active one unchanged', async () => {
    const member = await deactivated('returning@acme.test');
    const back = expectOk(await reactivate(boss, member.member_id)).member;
    expect(back.status).toBe('active');
    const same = expectOk(await reactivate(boss, member.member_id)).member;
    expect(same.status).toBe('active');
    // An active member can be signed in again.
    expect((await h.login('returning@acme.test')).member.status).toBe('active');
  });

  it('refuses members without `stytch.member` `create` with 403 unauthorized_action', async () => {
    const member = await deactivated('still-gone@acme.test');
    for (const token of [plain, editor]) {
      const denied = await reactivate(token, member.member_id);
      expect(denied.status).toBe(403);
      expect(expectError(denied).error_type).toBe('unauthorized_action');
    }
    const found = expectOk(
      await h.call(ENDPOINTS.organizationMembersSearch, {
        token: boss,
        body: {
          query: {
            operator: 'AND',
            operands: [{ filter_name: 'member_ids', filter_value: [member.member_id] }],
          },
        },
      }),
    );
    expect(found.members[0]?.status).toBe('deleted');
  });

  it("answers 404 member_not_found for another organization's member and an unknown id", async () => {
    for (const id of [neighbour.member_id, 'member-test-00000000-0000-4000-8000-000000000000']) {
      const res = await reactivate(boss, id);
      expect(res.status).toBe(404);
      expect(expectError(res).error_type).toBe('member_not_found');
    }
  });

  it('refuses a call without a session', async () => {
    const res = await h.call(ENDPOINTS.memberReactivate, {
      params: { member_id: neighbour.member_id },
    });
    expect(res.status).toBe(401);
  });

  it('reactivates once when asked many times at once', async () => {
    const member = await deactivated('concurrent@acme.test');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => reactivate(boss, member.member_id)),
    );
    for (const answer of answers) expect(expectOk(answer).member.status).toBe('active');
  });
});

describe('searching members by part of an address or a name', () => {
  const search = (
    token: string,
    filter_name: 'member_email_fuzzy' | 'member_name_fuzzy',
    filter_value: string,
  ) =>
    h.call(ENDPOINTS.organizationMembersSearch, {
      token,
      body: { query: { operator: 'AND', operands: [{ filter_name, filter_value }] } },
    });
  const emails = (res: Awaited<ReturnType<typeof search>>) =>
    expectOk(res)
      .members.map((m) => m.email_address)
      .sort();

  beforeAll(async () => {
    await h.addMember('grace.hopper@acme.test');
    expectOk(
      await h.call(ENDPOINTS.updateMember, {
        params: {
          organization_id: h.org.organization_id,
          member_id: (await h.addMember('odd_100%@acme.test')).member_id,
        },
        body: { name: 'Percy Underscore' },
      }),
    );
    await h.addMember('grace@door.test', [], neighbour.organization_id);
  });

  it('finds members whose address contains the text, in any case, in the caller’s organization only', async () => {
    expect(emails(await search(editor, 'member_email_fuzzy', 'GRACE'))).toEqual([
      'grace.hopper@acme.test',
    ]);
  });

  it('finds members by part of their name, in any case', async () => {
    expect(emails(await search(boss, 'member_name_fuzzy', 'percy under'))).toEqual([
      'odd_100%@acme.test',
    ]);
  });

  it('takes % and _ literally', async () => {
    expect(emails(await search(boss, 'member_email_fuzzy', '_100%'))).toEqual([
      'odd_100%@acme.test',
    ]);
    expect(emails(await search(boss, 'member_email_fuzzy', '%'))).toEqual(['odd_100%@acme.test']);
  });

  it('refuses an empty text with 400', async () => {
    const res = await search(boss, 'member_name_fuzzy', '');
    expect(res.status).toBe(400);
    expect(expectError(res).error_type).toBe('invalid_request');
  });
});
