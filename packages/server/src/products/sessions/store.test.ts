// The one-query session lookup returns what the separate lookups of session, member (with its
// roles) and organization return, on SQLite and PostgreSQL alike.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLiveSession } from '../../auth/sessions.js';
import { hashToken } from '../../crypto/random.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { memberById } from '../../tenancy/members/store.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { sessionWithOwnerById, sessionWithOwnerByTokenHash } from './store.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const separately = async (sessionId: string) => {
  const row = await h.db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return {
    row,
    member: await memberById(h.db, row.project_id, row.member_id),
    organization: await organizationById(h.db, row.project_id, row.organization_id),
  };
};

describe('sessionWithOwnerByTokenHash', () => {
  it('equals the separate lookups, every role and source in order', async () => {
    const login = await h.login('roles@acme.test');
    const memberId = login.member_session.member_id;
    await h.db
      .insertInto('member_roles')
      .values([
        { member_id: memberId, role_id: 'auditor', source_type: 'direct_assignment' },
        { member_id: memberId, role_id: 'zeta', source_type: 'direct_assignment' },
        { member_id: memberId, role_id: 'auditor', source_type: 'email_assignment' },
      ])
      .execute();
    const found = await sessionWithOwnerByTokenHash(h.db, hashToken(login.session_token));
    const expected = await separately(login.member_session.member_session_id);
    expect(found).toEqual(expected);
    expect(found?.member.roles.map((r) => [r.role_id, r.sources.length])).toEqual([
      ['auditor', 2],
      ['member', 1],
      ['zeta', 1],
    ]);
    expect(await sessionWithOwnerById(h.db, login.member_session.member_session_id)).toEqual(
      expected,
    );
  });

  it('finds a member without roles, with none', async () => {
    const login = await h.login('roleless@acme.test');
    await h.db
      .deleteFrom('member_roles')
      .where('member_id', '=', login.member_session.member_id)
      .execute();
    const found = await sessionWithOwnerByTokenHash(h.db, hashToken(login.session_token));
    expect(found?.member.roles).toEqual([]);
    expect(found).toEqual(await separately(login.member_session.member_session_id));
  });

  it('finds nothing for an unknown token or id', async () => {
    expect(await sessionWithOwnerByTokenHash(h.db, hashToken('no-such-token'))).toBeNull();
    expect(await sessionWithOwnerById(h.db, 'member-session-test-none')).toBeNull();
  });
});

describe('the lookup as a prepared statement', () => {
  it('is kept prepared on PostgreSQL, unlike a select *, and survives a column added later', async () => {
    const login = await h.login('prepared@acme.test');
    const hash = hashToken(login.session_token);
    const expected = await separately(login.member_session.member_session_id);
    const rollback = new Error('rollback');
    // One transaction is one connection, whose prepared statements PostgreSQL lists.
    const outcome = h.db.transaction().execute(async (trx) => {
      expect(await sessionWithOwnerByTokenHash(trx, hash)).toEqual(expected);
      expect(
        await findLiveSession(trx, h.project.project_id, login.session_token, h.clock.now),
      ).toEqual(expected.row);
      if (process.env.TEST_DATABASE_URL) {
        const { rows } = await sql<{ statement: string }>`
          SELECT statement FROM pg_prepared_statements WHERE NOT from_sql`.execute(trx);
        const statements = rows.map((r) => r.statement);
        expect(statements.some((s) => s.includes('"s"."token_hash" = $1'))).toBe(true);
        expect(statements.some((s) => s.includes('select *'))).toBe(false);
      }
      await sql`ALTER TABLE sessions ADD COLUMN probe text`.execute(trx);
      expect(await sessionWithOwnerByTokenHash(trx, hash)).toEqual(expected);
      throw rollback;
    });
    await expect(outcome).rejects.toBe(rollback);
  });
});
