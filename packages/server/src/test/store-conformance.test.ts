// Storage conformance: the contract of the core store functions, the same on SQLite and on
// PostgreSQL (the PostgreSQL pass runs this file too): single-use tokens redeemed once under
// concurrency, members and federated identities unique under concurrency, expiry and scoping.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedMemberId, linkOf, recordLink } from '../auth/federated/registrations.js';
import {
  consumeIntermediateSession,
  createIntermediateSession,
  findIntermediateSession,
} from '../auth/intermediate.js';
import { issueLinkToken, redeemLinkToken } from '../auth/link-tokens.js';
import { createMember } from '../tenancy/members/store.js';
import type { Project } from '../tenancy/projects/service.js';
import { ProjectService } from '../tenancy/projects/service.js';
import { transaction } from '../store/transaction.js';
import { startHarness, type Harness } from './harness.js';

/** The PKCE challenge of a verifier: unpadded base64url(SHA-256(verifier)). */
const pkceChallenge = (verifier: string) =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** How many callers race for one row. */
const RACERS = 12;

let h: Harness;
let project: Project;
beforeAll(async () => {
  h = await startHarness();
  const found = await new ProjectService(h.db, () => h.clock.now).byId(h.project.project_id);
  if (!found) throw new Error('The seeded project is missing');
  project = found;
});
afterAll(async () => {
  await h.close();
});

/** Runs `work` for every racer at once, each in a transaction of its own. */
function race<T>(work: (trx: Harness['db'], i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(
    Array.from({ length: RACERS }, (_, i) => transaction(h.db, (trx) => work(trx, i))),
  );
}

describe('link tokens', () => {
  const issue = (email: string, options: { pkce?: string; minutes?: number } = {}) =>
    issueLinkToken(
      h.db,
      {
        projectId: project.id,
        kind: 'magic_link',
        email,
        organizationId: h.org.organization_id,
        pkceChallenge: options.pkce === undefined ? null : pkceChallenge(options.pkce),
        lifetimeMinutes: options.minutes ?? 10,
      },
      h.clock.now,
    );

  it('are redeemed by exactly one of many concurrent callers', async () => {
    const token = await issue('race@acme.test');
    const results = await race((trx) =>
      redeemLinkToken(trx, project.id, 'magic_link', token, undefined, h.clock.now),
    );
    const redeemed = results.filter((r) => typeof r !== 'string');
    expect(redeemed).toHaveLength(1);
    expect(redeemed[0]).toMatchObject({ email: 'race@acme.test', kind: 'magic_link' });
    expect(results.filter((r) => r === 'not_found')).toHaveLength(RACERS - 1);
    expect(
      await redeemLinkToken(h.db, project.id, 'magic_link', token, undefined, h.clock.now),
    ).toBe('not_found');
  });

  it('are not found for another kind, another project, or once expired', async () => {
    const token = await issue('scope@acme.test', { minutes: 1 });
    const now = h.clock.now;
    expect(await redeemLinkToken(h.db, project.id, 'discovery', token, undefined, now)).toBe(
      'not_found',
    );
    expect(
      await redeemLinkToken(h.db, 'project-test-other', 'magic_link', token, undefined, now),
    ).toBe('not_found');
    expect(
      await redeemLinkToken(h.db, project.id, 'magic_link', token, undefined, now + 60_000),
    ).toBe('not_found');
    const redeemed = await redeemLinkToken(h.db, project.id, 'magic_link', token, undefined, now);
    expect(typeof redeemed).toBe('object');
  });

  it('stay usable after a PKCE mismatch, and are redeemed once with the right verifier', async () => {
    const verifier = 'v'.repeat(43);
    const token = await issue('pkce@acme.test', { pkce: verifier });
    const now = h.clock.now;
    expect(await redeemLinkToken(h.db, project.id, 'magic_link', token, 'w'.repeat(43), now)).toBe(
      'pkce_mismatch',
    );
    expect(await redeemLinkToken(h.db, project.id, 'magic_link', token, undefined, now)).toBe(
      'pkce_mismatch',
    );
    const results = await race((trx) =>
      redeemLinkToken(trx, project.id, 'magic_link', token, verifier, now),
    );
    expect(results.filter((r) => typeof r !== 'string')).toHaveLength(1);
  });
});

describe('intermediate sessions', () => {
  it('are consumed by exactly one of many concurrent callers', async () => {
    const now = h.clock.now;
    const token = await createIntermediateSession(
      h.db,
      project,
      { email: 'ist@acme.test', factors: [] },
      now,
    );
    const session = await findIntermediateSession(h.db, project.id, token, now);
    expect(session).toMatchObject({ email: 'ist@acme.test', memberId: null, factors: [] });
    if (!session) return;
    const results = await race((trx) => consumeIntermediateSession(trx, session.id, now));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await findIntermediateSession(h.db, project.id, token, now)).toBeNull();
    expect(await consumeIntermediateSession(h.db, session.id, now)).toBe(false);
  });

  it('are not found for another project, or once expired', async () => {
    const now = h.clock.now;
    const token = await createIntermediateSession(
      h.db,
      project,
      { email: 'late@acme.test', factors: [] },
      now,
    );
    expect(await findIntermediateSession(h.db, 'project-test-other', token, now)).toBeNull();
    expect(await findIntermediateSession(h.db, project.id, token, now + 11 * 60_000)).toBeNull();
    expect(await findIntermediateSession(h.db, project.id, token, now)).not.toBeNull();
  });
});

describe('members', () => {
  it('are created once per address and organization under concurrency', async () => {
    const results = await race((trx, i) =>
      createMember(
        trx,
        project.id,
        project.environment,
        h.org.organization_id,
        // The same address, spelled differently: one member.
        { email_address: i % 2 === 0 ? 'Twin@Acme.test' : 'twin@acme.test' },
        h.clock.now,
      ),
    );
    const created = results.filter((r) => r !== 'email_taken');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ email_address: 'twin@acme.test' });
    const rows = await h.db
      .selectFrom('members')
      .select('id')
      .where('organization_id', '=', h.org.organization_id)
      .where('email', '=', 'twin@acme.test')
      .execute();
    expect(rows).toHaveLength(1);
    const roles = await h.db
      .selectFrom('member_roles')
      .select('role_id')
      .where('member_id', '=', rows[0]?.id ?? '')
      .execute();
    expect(roles.map((r) => r.role_id)).toContain('member');
  });
});

describe('federated identity links', () => {
  const identity = { provider: 'sso:conformance', issuer: 'https://idp.test', subject: 'sub-1' };
  const asLinkable = async (email: string) => {
    const member = await createMember(
      h.db,
      project.id,
      project.environment,
      h.org.organization_id,
      { email_address: email },
      h.clock.now,
    );
    if (member === 'email_taken') throw new Error(`${email} exists`);
    return {
      project_id: project.id,
      organization_id: h.org.organization_id,
      member_id: member.member_id,
      email,
    };
  };

  const linkable = <T>(members: T[], i: number): T => {
    const member = members[i];
    if (member === undefined) throw new Error(`No member ${i}`);
    return member;
  };

  it('link one identity to one member only, under concurrency', async () => {
    const members = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => asLinkable(`linker${i}@acme.test`)),
    );
    const results = await race((trx, i) =>
      recordLink(trx, linkable(members, i), identity, h.clock.now),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = members[results.indexOf(true)];
    expect(await linkedMemberId(h.db, h.org.organization_id, identity)).toBe(winner?.member_id);
    const rows = await h.db
      .selectFrom('member_federated_identities')
      .select('member_id')
      .where('provider', '=', identity.provider)
      .execute();
    expect(rows).toEqual([{ member_id: winner?.member_id }]);
  });

  it('note later sign-ins, and replace a member’s link when the provider vouches for a new one', async () => {
    const member = await asLinkable('relinked@acme.test');
    const first = { provider: 'google', issuer: 'https://accounts.google.com', subject: 'g-1' };
    expect(await recordLink(h.db, member, first, h.clock.now)).toBe(true);
    h.clock.advance(60_000);
    expect(await recordLink(h.db, member, first, h.clock.now)).toBe(true);
    expect(await linkOf(h.db, member.member_id, 'google')).toMatchObject({
      subject: 'g-1',
      last_used_at: new Date(h.clock.now).toISOString(),
    });
    const second = { ...first, subject: 'g-2' };
    expect(await recordLink(h.db, member, second, h.clock.now)).toBe(true);
    expect(await linkOf(h.db, member.member_id, 'google')).toMatchObject({ subject: 'g-2' });
    expect(await linkedMemberId(h.db, h.org.organization_id, first)).toBeNull();
    expect(await linkedMemberId(h.db, h.org.organization_id, second)).toBe(member.member_id);
  });
});
