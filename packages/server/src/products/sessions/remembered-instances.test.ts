// Session checks remembered by two instances over one database (docs/security.md, "Session checks
// read what is stored now"): a session revoked, a member deleted, a role or an organization
// changed on A shows at B's next check once B has heard the commit. On SQLite that is at once
// (`PRAGMA data_version`); on PostgreSQL (run there by `npm test` with TEST_DATABASE_URL) B hears
// a notice from the change triggers, and while it cannot hear them it reads every check.
import type { Member } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeListeners } from '../../store/change-notices.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin } from '../../test/mfa.js';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let h: Harness;
/** Instance B: a sibling of the harness's server (A) over the same database. */
let b: string;
let count = 0;

beforeAll(async () => {
  h = await startHarness();
  b = (await h.sibling()).url;
});
afterAll(async () => {
  await h.close();
});

const checkOnB = (token: string) =>
  h.call(ENDPOINTS.sessionsAuthenticate, { body: {}, token, baseUrl: b });

/** Waits until every instance has heard every commit made so far (at once on SQLite). */
async function heard() {
  expect(await Promise.all(activeListeners().map((l) => l.heardUpToNow()))).not.toContain(false);
}

/** Checks on B until it remembers the session (B reads through until it is listening). */
async function rememberedOnB(token: string) {
  expectOk(await checkOnB(token));
  await until(() => activeListeners().every((l) => l.version() !== null));
  await heard();
  expectOk(await checkOnB(token));
  return expectOk(await checkOnB(token));
}

async function until(condition: () => boolean) {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('Timed out waiting for the change listeners.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A fresh organization with a boss (admin) and a member, each signed in on A. */
async function team() {
  const slug = `instances-${++count}`;
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

const expectGone = (res: Awaited<ReturnType<typeof checkOnB>>) =>
  expect([res.status, res.error?.error_type]).toEqual([404, 'session_not_found']);

/** Revokes a session with no change notice (PostgreSQL: triggers off for this transaction). */
async function revokeUnheard(sessionId: string) {
  await h.db.transaction().execute(async (trx) => {
    if (postgres) await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await trx
      .updateTable('sessions')
      .set({ revoked_at: new Date(h.clock.now).toISOString() })
      .where('id', '=', sessionId)
      .execute();
  });
}

describe('a session check on B after a change on A', () => {
  it('refuses a session revoked on A', async () => {
    const { ada } = await team();
    await rememberedOnB(ada.token);
    expectOk(await h.call(ENDPOINTS.sessionsRevoke, { token: ada.token }));
    await heard();
    expectGone(await checkOnB(ada.token));
  });

  it('refuses the session of a member deleted on A', async () => {
    const { boss, ada } = await team();
    await rememberedOnB(ada.token);
    expectOk(
      await h.call(ENDPOINTS.memberDelete, {
        token: boss.token,
        params: { member_id: ada.member.member_id },
      }),
    );
    await heard();
    expectGone(await checkOnB(ada.token));
  });

  it('answers a role given and taken on A', async () => {
    const { boss, ada } = await team();
    expect((await rememberedOnB(ada.token)).member_session.roles).not.toContain('admin');
    const setRoles = async (roles: string[]) => {
      expectOk(
        await h.call(ENDPOINTS.memberUpdate, {
          token: boss.token,
          params: { member_id: ada.member.member_id },
          body: { roles },
        }),
      );
      await heard();
    };
    await setRoles(['admin']);
    const given = expectOk(await checkOnB(ada.token));
    expect(given.member_session.roles).toContain('admin');
    expect(given.member.roles.map((r) => r.role_id)).toContain('admin');
    expectOk(await checkOnB(ada.token));
    await setRoles([]);
    expect(expectOk(await checkOnB(ada.token)).member_session.roles).not.toContain('admin');
  });

  it('answers an organization renamed on A', async () => {
    const { boss, ada } = await team();
    await rememberedOnB(ada.token);
    expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: boss.token,
        body: { organization_name: 'Renamed on A' },
      }),
    );
    await heard();
    expect(expectOk(await checkOnB(ada.token)).organization.organization_name).toBe('Renamed on A');
  });
});

describe('what B remembers', () => {
  it('is only what no commit since could have changed: a change nothing announces stays unseen on PostgreSQL alone', async () => {
    const { ada } = await team();
    const data = await rememberedOnB(ada.token);
    await revokeUnheard(data.member_session.member_session_id);
    await heard();
    const res = await checkOnB(ada.token);
    // SQLite sees every commit to the file; PostgreSQL only the ones its triggers announce, which
    // is why every write to what a check reads has one (migration 0028_change_notices).
    if (postgres) expect(expectOk(res).member_session.member_id).toBe(ada.member.member_id);
    else expectGone(res);
  });

  it('is forgotten when the listening connection drops, and read through until it listens again', async () => {
    const { ada } = await team();
    const data = await rememberedOnB(ada.token);
    if (postgres) {
      const versions = new Map(activeListeners().map((l) => [l, l.version()]));
      const pids = activeListeners().flatMap((l) => l.backendPid() ?? []);
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) await sql`SELECT pg_terminate_backend(${pid})`.execute(h.db);
      // Dropped (null: read through) or listening again (a new version: all forgotten).
      await until(() => activeListeners().every((l) => l.version() !== versions.get(l)));
    }
    await revokeUnheard(data.member_session.member_session_id);
    expectGone(await checkOnB(ada.token));
    // Listening again, B remembers again.
    const { ada: next } = await team();
    expect((await rememberedOnB(next.token)).member.member_id).toBe(next.member.member_id);
  });
});
