// Two server instances over one database, as behind a load balancer (run on SQLite and, by
// `npm test`, on PostgreSQL, where races really run in parallel): sessions, revocations,
// single-use tokens, replayed codes, rate limits and the password throttle hold across both.
// Signing key rotation across instances is covered in products/management/keys.test.ts.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from './test/mfa.js';
import { expectOk, startHarness, type Harness } from './test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const CONCURRENT = 50;

let h: Harness;
/** The two instances: A is the harness's own server, B a sibling over the same database. */
let instances: [string, string];

beforeAll(async () => {
  h = await startHarness({
    listen: true,
    config: {
      rateLimits: { sendsPerEmailPerHour: 4 },
      passwordThrottle: { freeAttempts: 3, initialDelaySeconds: 60 },
    },
  });
  instances = [h.url, (await h.sibling()).url];
});

afterAll(async () => {
  await h?.close();
});

/** Alternates between the instances: request i goes to A when i is even, else to B. */
const on = (i: number) => ({ baseUrl: instances[i % 2] });

/** Fires `count` copies of one request, spread over both instances; answers their statuses. */
async function race(count: number, send: (i: number) => Promise<{ status: number }>) {
  const results = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  return results.map((r) => r.status);
}

const successes = (statuses: number[]) => statuses.filter((s) => s === 200).length;

describe('two instances over one database', () => {
  it('authenticates on B a session created on A, and refuses on A one revoked on B', async () => {
    const { session_token, session_jwt } = await h.login();
    const onB = await h.call(ENDPOINTS.sessionsAuthenticate, {
      token: session_token,
      body: {},
      ...on(1),
    });
    expect(expectOk(onB).member.member_id).toBe(h.member.member_id);

    expectOk(await h.call(ENDPOINTS.sessionsRevoke, { token: session_token, ...on(1) }));
    const byToken = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token },
      ...on(0),
    });
    expect(byToken.status).toBe(404);
    // The management API checks a JWT against the session too; only offline verification keeps
    // trusting it until it expires (at most five minutes).
    const byJwt = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_jwt },
      ...on(0),
    });
    expect(byJwt.status).toBe(404);
  });

  it(`gives one success to ${CONCURRENT} redemptions of one magic link over both`, async () => {
    expectOk(
      await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
      }),
    );
    const token = await h.lastToken('ada@acme.test');
    const statuses = await race(CONCURRENT, (i) =>
      h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: { magic_links_token: token, session_duration_minutes: 60 },
        ...on(i),
      }),
    );
    expect(successes(statuses)).toBe(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(CONCURRENT - 1);
  });

  it(`gives one success to ${CONCURRENT} exchanges of one intermediate session`, async () => {
    expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: 'ada@acme.test' } }),
    );
    const discovered = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken('ada@acme.test') },
      }),
    );
    const ist = discovered.intermediate_session_token;
    const statuses = await race(CONCURRENT, (i) =>
      h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: ist,
          organization_id: h.org.organization_id,
          session_duration_minutes: 60,
        },
        ...on(i),
      }),
    );
    expect(successes(statuses)).toBe(1);
    expect(statuses.every((s) => s === 200 || (s >= 400 && s < 500))).toBe(true);
  });

  it(`accepts one TOTP code once among ${CONCURRENT} concurrent uses`, async () => {
    const { session_token } = await h.login();
    const caller = { organization_id: h.org.organization_id, member_id: h.member.member_id };
    const { secret } = expectOk(
      await h.call(ENDPOINTS.totpCreate, { token: session_token, body: caller }),
    );
    expectOk(
      await h.call(ENDPOINTS.totpAuthenticate, {
        token: session_token,
        body: { ...caller, code: totpAt(secret, h.clock.now) },
      }),
    );
    h.clock.advance(30_000);
    const code = totpAt(secret, h.clock.now);
    const statuses = await race(CONCURRENT, (i) =>
      h.call(ENDPOINTS.totpAuthenticate, {
        token: session_token,
        body: { ...caller, code },
        ...on(i),
      }),
    );
    expect(successes(statuses)).toBe(1);
  });

  it('signs many in at once while the signing keyring is due for a check', async () => {
    // More sign-ins at once than PostgreSQL connections in the pool, each signing a JWT inside
    // its transaction while the keyring is stale: none may wait for a second connection.
    const emails = Array.from({ length: 40 }, (_, i) => `crowd-${i}@acme.test`);
    const tokens: string[] = [];
    for (const email of emails) {
      await h.admin.createMember(h.project.project_id, h.org.organization_id, {
        email_address: email,
      });
      expectOk(
        await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
          body: { email_address: email, organization_id: h.org.organization_id },
        }),
      );
      tokens.push(await h.lastToken(email));
    }
    h.clock.advance(11_000);
    expectOk(await h.call(ENDPOINTS.rotateSigningKey, { body: {} }));
    // Past the retired key's retention: every instance's keyring now wants a fresh read.
    h.clock.advance(7 * 60_000);
    const statuses = await race(tokens.length, (i) =>
      h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: { magic_links_token: tokens[i] ?? '', session_duration_minutes: 60 },
        ...on(i),
      }),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('counts e-mail sends to one address across both instances', async () => {
    const send = (i: number) =>
      h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: 'grace@acme.test', organization_id: h.org.organization_id },
        ...on(i),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await send(i)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('throttles password guesses across both instances', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'linus@acme.test',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
    const guess = (i: number) =>
      h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: 'linus@acme.test',
          password: `wrong-guess-${i}`,
          session_duration_minutes: 60,
        },
        ...on(i),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await guess(i)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
