// Password sign-in in discovery (§7.2, §7.3), as the published browser SDKs call it: result DR,
// look-alike failures in body and time, the per-address throttle, the per-IP limit, other
// projects and concurrent guesses.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const PER_IP = 12;

let h: Harness;
beforeAll(async () => {
  // Full-cost hashes: an unknown address must cost as much as a real verification.
  vi.stubEnv('GATEHOUSE_TEST_FAST_HASH', '0');
  // One proxy hop is trusted, so a test can speak from several client IPs (X-Forwarded-For).
  h = await startHarness({
    config: { trustProxy: 1, rateLimits: { passwordAttemptsPerIpPerHour: PER_IP } },
  });
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
  vi.unstubAllEnvs();
});

let nextIp = 1;
/** A client IP no other test uses. */
const freshIp = () => `198.51.100.${nextIp++}`;

const discover = (email_address: string, password: string, ip: string, authorization?: string) =>
  h.call(ENDPOINTS.passwordsDiscoveryAuthenticate, {
    body: { email_address, password },
    headers: { 'x-forwarded-for': ip },
    ...(authorization ? { authorization } : {}),
  });

describe('passwords/discovery/authenticate', () => {
  it("answers an IST and the address's organizations, and the IST enters one", async () => {
    const data = expectOk(await discover('Ada@Acme.test', PASSWORD, freshIp()));
    expect(data.email_address).toBe('ada@acme.test');
    expect(data.intermediate_session_token).not.toBe('');
    const found = data.discovered_organizations.map((d) => d.organization?.organization_id);
    expect(found).toEqual([h.org.organization_id]);
    expect(data.discovered_organizations[0]?.primary_required).toBeNull();
    const entered = expectSession(
      await h.call(ENDPOINTS.discoveryExchange, {
        body: {
          intermediate_session_token: data.intermediate_session_token,
          organization_id: h.org.organization_id,
        },
      }),
    );
    expect(entered.member_id).toBe(h.member.member_id);
    expect(entered.member_session.authentication_factors[0]?.type).toBe('password');
  });

  it('answers a wrong password, an unknown address and one without a password alike', async () => {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'nopass@acme.test',
    });
    const ip = freshIp();
    const answers = [
      await discover('ada@acme.test', 'Not-The-Password-1', ip),
      await discover('nobody@acme.test', PASSWORD, ip),
      await discover('nopass@acme.test', PASSWORD, ip),
    ];
    for (const res of answers) {
      expect([res.status, res.error?.error_type, res.error?.error_message]).toEqual([
        401,
        'unauthorized_credentials',
        'Invalid email or password.',
      ]);
    }
    // Only the request id differs, and it has the same length.
    expect(new Set(answers.map((res) => res.text.length)).size).toBe(1);
  });

  it('spends about the same time on an unknown address as on a wrong password', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await discover(email, 'Not-The-Password-1', freshIp());
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) =>
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await timed('ada@acme.test'));
      unknown.push(await timed(`ghost${i}@acme.test`));
    }
    await h.db.deleteFrom('rate_limit_backoffs').execute();
    // Without the dummy verification an unknown address would answer many times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    expect(median(unknown)).toBeLessThan(median(known) * 2);
  });

  it('throttles guesses at an address, known or not, the same way', async () => {
    const statuses = async (email: string) => {
      const ip = freshIp();
      const seen = [];
      for (let i = 0; i < 6; i += 1) seen.push((await discover(email, `wrong-${i}`, ip)).status);
      const right = await discover(email, PASSWORD, ip);
      return { seen, right: [right.status, right.error?.error_type] };
    };
    const known = await statuses('ada@acme.test');
    const unknown = await statuses('stranger@acme.test');
    expect(known.seen).toEqual([401, 401, 401, 401, 401, 429]);
    expect(known.right).toEqual([429, 'too_many_requests']);
    expect(unknown).toEqual(known);
    await h.db.deleteFrom('rate_limit_backoffs').execute();
  });

  it('starts the back-off over after a right password', async () => {
    const ip = freshIp();
    const wrongs = async () => {
      const seen = [];
      for (let i = 0; i < 4; i += 1)
        seen.push((await discover('ada@acme.test', `no-${i}`, ip)).status);
      return seen;
    };
    expect(await wrongs()).toEqual([401, 401, 401, 401]);
    expectOk(await discover('ada@acme.test', PASSWORD, ip));
    // Counted as a fifth attempt, the right guess would leave one free attempt here, not four.
    expect(await wrongs()).toEqual([401, 401, 401, 401]);
    await h.db.deleteFrom('rate_limit_backoffs').execute();
  });

  it('checks at most the free attempts of concurrent guesses', async () => {
    const ip = freshIp();
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => discover('ada@acme.test', `wrong-${i}`, ip)),
    );
    const statuses = guesses.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    await h.db.deleteFrom('rate_limit_backoffs').execute();
  });

  it('limits guesses per IP across addresses', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i <= PER_IP; i += 1) {
      statuses.push((await discover(`spray${i}@acme.test`, 'guess-1', ip)).status);
    }
    expect(statuses.slice(0, PER_IP).every((status) => status === 401)).toBe(true);
    expect(statuses[PER_IP]).toBe(429);
  });

  it("finds no member of another project, and refuses a bad body or the secret's kind", async () => {
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const foreign = await discover(
      'ada@acme.test',
      PASSWORD,
      freshIp(),
      basic(other.public_token, other.public_token),
    );
    expect([foreign.status, foreign.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const malformed = await h.sdk('/b2b/passwords/discovery/authenticate', {
      body: { email_address: 'ada@acme.test' },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect([malformed.status, malformed.error?.error_type]).toEqual([400, 'invalid_request']);
    const secret = await discover(
      'ada@acme.test',
      PASSWORD,
      freshIp(),
      basic(h.project.project_id, h.project.secret),
    );
    expect([secret.status, secret.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });
});
