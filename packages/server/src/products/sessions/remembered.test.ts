// Session checks answered from memory (docs/security.md, "Sessions end when they should"): a
// revoked session, a deleted member and a changed role show at the very next check, whether this
// server made the change or another connection to the database file did (the harness's `h.db`
// is one, as the CLI or a second server would be; on PostgreSQL the server hears its commits as
// change notices, so the check waits until they are heard).
import type { Member } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeListeners } from '../../store/change-notices.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin } from '../../test/mfa.js';

let h: Harness;
let count = 0;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const check = (token: string) => h.call(ENDPOINTS.sessionsAuthenticate, { body: {}, token });

/** Checks the session twice (the second answer may come from memory) and returns the last. */
async function checkedTwice(token: string) {
  expectOk(await check(token));
  return expectOk(await check(token));
}

/** A fresh organization with a boss (admin) and a member, each signed in. */
async function team() {
  const slug = `remembered-${++count}`;
  const org = await h.admin.createOrganization(h.project.project_id, {
    organization_name: slug,
    organization_slug: slug,
    email_allowed_domains: [`${slug}.test`],
  });
  const person = async (name: string, roles: string[]) => {
    const email = `${name}@${slug}.test`;
    const member: Member = await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: email,
      roles,
    });
    return { member, token: (await magicLogin(h, email, org.organization_id)).session_token };
  };
  return { boss: await person('boss', ['admin']), ada: await person('ada', []) };
}

/** Waits until the server has heard every commit so far (at once on SQLite). */
async function heard() {
  expect(await Promise.all(activeListeners().map((l) => l.heardUpToNow()))).not.toContain(false);
}

const expectGone = (res: Awaited<ReturnType<typeof check>>) =>
  expect([res.status, res.error?.error_type]).toEqual([404, 'session_not_found']);

describe('a session check after a change by this server', () => {
  it('refuses a revoked session at the next check', async () => {
    const { ada } = await team();
    const data = await checkedTwice(ada.token);
    await h.admin.revokeSessions(h.project.project_id, {
      session_id: data.member_session.member_session_id,
    });
    expectGone(await check(ada.token));
  });

  it('refuses a session an admin revoked by its id at the next check', async () => {
    const { boss, ada } = await team();
    const data = await checkedTwice(ada.token);
    expectOk(
      await h.call(ENDPOINTS.organizationSessionsRevoke, {
        token: boss.token,
        body: { member_session_id: data.member_session.member_session_id },
      }),
    );
    expectGone(await check(ada.token));
  });

  it('answers a changed role at the next check', async () => {
    const { boss, ada } = await team();
    expect((await checkedTwice(ada.token)).member_session.roles).not.toContain('admin');
    expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: boss.token,
        params: { member_id: ada.member.member_id },
        body: { roles: ['admin'] },
      }),
    );
    const after = expectOk(await check(ada.token));
    expect(after.member_session.roles).toContain('admin');
    expect(after.member.roles.map((r) => r.role_id)).toContain('admin');
  });

  it('refuses the session of a deleted member at the next check', async () => {
    const { boss, ada } = await team();
    await checkedTwice(ada.token);
    expectOk(
      await h.call(ENDPOINTS.memberDelete, {
        token: boss.token,
        params: { member_id: ada.member.member_id },
      }),
    );
    expectGone(await check(ada.token));
  });
});

describe('a session check after a change by another connection to the database', () => {
  it('refuses a revoked session at the next check', async () => {
    const { ada } = await team();
    const data = await checkedTwice(ada.token);
    await h.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(h.clock.now).toISOString() })
      .where('id', '=', data.member_session.member_session_id)
      .execute();
    await heard();
    expectGone(await check(ada.token));
  });

  it('answers a changed role at the next check, and a removed one', async () => {
    const { ada } = await team();
    await checkedTwice(ada.token);
    await h.db
      .insertInto('member_roles')
      .values({
        member_id: ada.member.member_id,
        role_id: 'auditor',
        source_type: 'direct_assignment',
      })
      .execute();
    await heard();
    expect((await checkedTwice(ada.token)).member_session.roles).toContain('auditor');
    await h.db.deleteFrom('member_roles').where('member_id', '=', ada.member.member_id).execute();
    await heard();
    expect(expectOk(await check(ada.token)).member_session.roles).not.toContain('auditor');
  });

  it('refuses the session of a deleted member at the next check', async () => {
    const { ada } = await team();
    await checkedTwice(ada.token);
    await h.db
      .updateTable('members')
      .set({ status: 'deleted' })
      .where('id', '=', ada.member.member_id)
      .execute();
    await heard();
    expectGone(await check(ada.token));
  });

  it('answers a renamed organization at the next check', async () => {
    const { ada } = await team();
    const before = await checkedTwice(ada.token);
    await h.db
      .updateTable('organizations')
      .set({ name: 'Renamed elsewhere' })
      .where('id', '=', before.organization.organization_id)
      .execute();
    await heard();
    expect(expectOk(await check(ada.token)).organization.organization_name).toBe(
      'Renamed elsewhere',
    );
  });
});

describe('the session JWT of a remembered session', () => {
  const claimsOf = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
  const slugIn = (jwt: string) =>
    Object.values(claimsOf(jwt)).find(
      (claim): claim is { slug: string } =>
        typeof claim === 'object' && claim !== null && 'slug' in claim,
    )?.slug;

  it('is handed out again while nothing changes, and names a new slug at the next check', async () => {
    const { ada } = await team();
    const first = await checkedTwice(ada.token);
    expect(expectOk(await check(ada.token)).session_jwt).toBe(first.session_jwt);
    await h.db
      .updateTable('organizations')
      .set({ slug: `${first.organization.organization_slug}-moved` })
      .where('id', '=', first.organization.organization_id)
      .execute();
    await heard();
    const after = expectOk(await check(ada.token));
    expect(after.session_jwt).not.toBe(first.session_jwt);
    expect(slugIn(after.session_jwt)).toBe(`${first.organization.organization_slug}-moved`);
  });
});
