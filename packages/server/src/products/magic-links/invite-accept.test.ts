// Accepting invitations (§7.1): by link and by discovery, revocation by deleting the member,
// single use under concurrency, other addresses and other kinds of token, and invite floods.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';
import { useInviteFixture } from './invite-fixture.js';

const { fixture, invite, accept, statusOf } = useInviteFixture();
let h: Harness;
let boss: string;
beforeAll(() => {
  ({ h, boss } = fixture);
});

describe('accepting an invitation', () => {
  it('is revoked by deleting the member, and a new invitation does not revive the old link', async () => {
    const { member_id } = expectOk(await invite({ email_address: 'gone@elsewhere.example' }));
    const old = await h.lastToken('gone@elsewhere.example');
    expectOk(await h.call(ENDPOINTS.memberDelete, { params: { member_id }, token: boss }));
    const revoked = await accept(old);
    expect([revoked.status, revoked.error?.error_type]).toEqual([404, 'member_not_found']);

    expectOk(await invite({ email_address: 'gone@elsewhere.example' }));
    const fresh = await h.lastToken('gone@elsewhere.example');
    const stale = await accept(old);
    expect([stale.status, stale.error?.error_type]).toEqual([404, 'magic_link_not_found']);
    expect(expectSession(await accept(fresh)).member.status).toBe('active');
  });

  it("signs in the invited address only: alice's link used with bob's session or IST", async () => {
    expectOk(await invite({ email_address: 'alice@elsewhere.example' }));
    const link = await h.lastToken('alice@elsewhere.example');
    const bob = await h.login('bob@acme.test');
    // Bob's discovery IST for bob@acme.test: a foreign IST is ignored, never merged.
    expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: 'bob@acme.test' } }),
    );
    const discovered = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken('bob@acme.test') },
      }),
    );
    const res = await h.call(ENDPOINTS.magicLinksAuthenticate, {
      body: {
        magic_links_token: link,
        session_duration_minutes: 60,
        intermediate_session_token: discovered.intermediate_session_token,
      },
      token: bob.session_token,
    });
    const alice = expectSession(res);
    expect(alice.member.email_address).toBe('alice@elsewhere.example');
    expect(alice.member_session.member_session_id).not.toBe(bob.member_session.member_session_id);
    const bobStill = expectOk(
      await h.call(ENDPOINTS.sessionsAuthenticate, { body: {}, token: bob.session_token }),
    );
    expect(bobStill.member.email_address).toBe('bob@acme.test');
  });

  it("bob's discovery neither lists nor enters an organization that invited alice", async () => {
    const team = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Team',
      organization_slug: 'team-invites',
    });
    expectOk(
      await invite({
        organization_id: team.organization_id,
        email_address: 'alice@elsewhere.example',
      }),
    );
    expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: 'bob@acme.test' } }),
    );
    const bob = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken('bob@acme.test') },
      }),
    );
    const ids = bob.discovered_organizations.map((d) => d.organization.organization_id);
    expect(ids).not.toContain(team.organization_id);
    const entered = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        organization_id: team.organization_id,
        session_duration_minutes: 60,
        intermediate_session_token: bob.intermediate_session_token,
      },
    });
    expect([entered.status, entered.error?.error_type]).toEqual([404, 'member_not_found']);
    expect(await statusOf('alice@elsewhere.example', team.organization_id)).toBe('invited');
  });

  it('shows an invited member in discovery as invited_member; entering makes them active', async () => {
    const team = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Crew',
      organization_slug: 'crew-invites',
    });
    expectOk(
      await invite({
        organization_id: team.organization_id,
        email_address: 'dora@elsewhere.example',
      }),
    );
    expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoverySend, {
        body: { email_address: 'dora@elsewhere.example' },
      }),
    );
    const dora = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken('dora@elsewhere.example') },
      }),
    );
    const found = dora.discovered_organizations.find(
      (d) => d.organization.organization_id === team.organization_id,
    );
    expect(found?.membership.type).toBe('invited_member');
    const entered = expectSession(
      await h.call(ENDPOINTS.discoveryExchange, {
        body: {
          organization_id: team.organization_id,
          session_duration_minutes: 60,
          intermediate_session_token: dora.intermediate_session_token,
        },
      }),
    );
    expect(entered.member.status).toBe('active');
  });

  it('takes no token of another kind, and an invitation is no token of another kind', async () => {
    expectOk(await invite({ email_address: 'kinds@elsewhere.example' }));
    const link = await h.lastToken('kinds@elsewhere.example');
    expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoverySend, {
        body: { email_address: 'kinds@elsewhere.example' },
      }),
    );
    const discovery = await h.lastToken('kinds@elsewhere.example');
    const asInvite = await accept(discovery);
    expect([asInvite.status, asInvite.error?.error_type]).toEqual([404, 'magic_link_not_found']);
    const asDiscovery = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
      body: { discovery_magic_links_token: link },
    });
    expect([asDiscovery.status, asDiscovery.error?.error_type]).toEqual([
      404,
      'magic_link_not_found',
    ]);
    const asReset = await h.call(ENDPOINTS.passwordsResetByEmail, {
      body: {
        password_reset_token: link,
        password: 'Quartz-Lantern-Orbit-42',
        session_duration_minutes: 60,
      },
    });
    expect([asReset.status, asReset.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    // None of them spent it.
    expect(expectSession(await accept(link)).member.email_address).toBe('kinds@elsewhere.example');
  });

  it('lets exactly one of concurrent accepts of one link sign in', async () => {
    const { member_id } = expectOk(await invite({ email_address: 'race@elsewhere.example' }));
    const link = await h.lastToken('race@elsewhere.example');
    const results = await Promise.all([accept(link), accept(link), accept(link)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    const sessions = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('member_id', '=', member_id)
      .execute();
    expect(sessions).toHaveLength(1);
  });
});

describe('invite floods', () => {
  let f: Harness;
  beforeAll(async () => {
    // The test client on 127.0.0.1 plays a trusted proxy, so X-Forwarded-For names the requester.
    f = await startHarness({
      config: {
        trustProxy: '127.0.0.1',
        rateLimits: { sendsPerEmailPerHour: 3, sendsPerIpPerHour: 20 },
      },
    });
  });
  afterAll(async () => {
    await f.close();
  });
  const from = (ip: string, email: string) =>
    f.call(ENDPOINTS.backendMagicLinksInvite, {
      body: { organization_id: f.org.organization_id, email_address: email },
      headers: { 'x-forwarded-for': ip },
    });

  it('meet the e-mail send limits per requester and address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await from('198.51.100.66', 'flood@elsewhere.example')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const outbox = await f.admin.listOutbox({ limit: 100 });
    expect(outbox.filter((m) => m.to === 'flood@elsewhere.example')).toHaveLength(3);
    // Another requester still reaches the address; a member session shares its requester's budget.
    expect((await from('203.0.113.7', 'flood@elsewhere.example')).status).toBe(200);
    await f.admin.createMember(f.project.project_id, f.org.organization_id, {
      email_address: 'boss@acme.test',
      roles: ['admin'],
    });
    const session = (await f.login('boss@acme.test')).session_token;
    const sdk = [];
    for (let i = 0; i < 4; i += 1) {
      sdk.push(
        await f.call(ENDPOINTS.magicLinksInvite, {
          body: { email_address: 'wave@elsewhere.example' },
          token: session,
          headers: { 'x-forwarded-for': '198.51.100.67' },
        }),
      );
    }
    expect(sdk.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(sdk[3]?.error?.error_type).toBe('too_many_requests');
    expect(sdk[3]?.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
