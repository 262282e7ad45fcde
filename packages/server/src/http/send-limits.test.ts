// E-mail send limits belong to the requester and the project: a stranger who spends them blocks only themselves.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../test/harness.js';

const ATTACKER = '198.51.100.66';
const OWNER = '203.0.113.7';

let h: Harness;
beforeAll(async () => {
  // The test client on 127.0.0.1 plays a trusted proxy, so X-Forwarded-For names the requester.
  h = await startHarness({
    config: {
      trustProxy: '127.0.0.1',
      rateLimits: { sendsPerEmailPerHour: 3, sendsPerIpPerHour: 20 },
    },
  });
});
afterAll(async () => {
  await h.close();
});

/** Every anonymous call that e-mails the address, as one requester makes it. */
const sends = {
  login: (from: string, email: string, publicToken?: string, organizationId?: string) =>
    h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: email, organization_id: organizationId ?? h.org.organization_id },
      headers: { 'x-forwarded-for': from },
      ...(publicToken ? { publicToken } : {}),
    }),
  discovery: (from: string, email: string) =>
    h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: email },
      headers: { 'x-forwarded-for': from },
    }),
  reset: (from: string, email: string) =>
    h.call(ENDPOINTS.passwordsResetStart, {
      body: { email_address: email, organization_id: h.org.organization_id },
      headers: { 'x-forwarded-for': from },
    }),
};

async function outboxCount(to: string): Promise<number> {
  return (await h.admin.listOutbox({ limit: 1000 })).filter((m) => m.to === to).length;
}

describe('e-mail send limits', () => {
  it("a requester who spends an address's budget is refused; the owner, elsewhere, still signs in", async () => {
    const statuses: number[] = [];
    for (const send of [sends.login, sends.discovery, sends.reset, sends.login, sends.reset]) {
      statuses.push((await send(ATTACKER, 'ADA@acme.test')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await sends.login(ATTACKER, 'ada@acme.test');
    expect([refused.status, refused.error?.error_type]).toEqual([429, 'too_many_requests']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.error?.error_message).toMatch(
      /^Too many e-mails were requested from your network/,
    );
    expect(await outboxCount('ada@acme.test')).toBe(3);

    // The owner asks from another network: every kind of link still goes out.
    for (const send of [sends.login, sends.discovery, sends.reset]) {
      const res = await send(OWNER, 'ada@acme.test');
      expect(res.status).toBe(200);
    }
    expect(await outboxCount('ada@acme.test')).toBe(6);
    const token = await h.lastToken('ada@acme.test');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("one project's spent budget leaves another project's alone", async () => {
    const other = await h.admin.createProject({
      name: 'Other',
      redirectUrls: {
        login: ['http://localhost:3000/authenticate'],
        signup: ['http://localhost:3000/authenticate'],
      },
    });
    const org = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Globex',
      organization_slug: 'globex',
    });
    await h.admin.createMember(other.project_id, org.organization_id, {
      email_address: 'hank@globex.test',
    });
    const from = '192.0.2.44';
    const first: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      first.push((await sends.login(from, `user${i}@acme.test`)).status);
    }
    // 20 sends per requester per hour in the first project...
    expect(first.filter((s) => s === 429)).toHaveLength(2);
    // ...and the same requester still has its own budget in the other project.
    const there = await sends.login(
      from,
      'hank@globex.test',
      other.public_token,
      org.organization_id,
    );
    expect(there.status).toBe(200);
  });
});
