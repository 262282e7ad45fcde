// GET /metrics: counters that move with real requests and sign-ins, and who may read them.
import { networkInterfaces } from 'node:os';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaOrganization } from '../test/mfa.js';
import { startHarness, type Harness } from '../test/harness.js';
import { createServer } from './app.js';
import { metricsAccess, ServerMetrics, signInOutcome } from './metrics.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const PASSWORD = 'Quartz-Lantern-Orbit-42';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    listen: true,
    config: {
      metricsToken: TOKEN,
      rateLimits: {
        sendsPerEmailPerHour: 1000,
        sendsPerIpPerHour: 10_000,
        searchesPerIpPerMinute: 3,
      },
    },
  });
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h?.close();
});

/** One sample of the text exposition: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key = '', value = ''] of (match[2] ?? '').matchAll(
        /(\w+)="((?:[^"\\]|\\.)*)"/g,
      )) {
        labels[key] = value;
      }
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

/** Reads /metrics from loopback and returns a lookup of sample values (0 when absent). */
async function scrape(): Promise<(name: string, labels?: Record<string, string>) => number> {
  const res = await fetch(`${h.url}/metrics`);
  expect(res.status).toBe(200);
  const samples = parse(await res.text());
  return (name, labels = {}) =>
    samples
      .filter((s) => s.name === name)
      .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
}

const passwordSignIn = (organizationId: string, email: string, password: string) =>
  h.call(ENDPOINTS.passwordsAuthenticate, {
    body: {
      organization_id: organizationId,
      email_address: email,
      password,
      session_duration_minutes: 60,
    },
  });

describe('GET /metrics', () => {
  it('counts password sign-ins by outcome: success, failure and mfa_required', async () => {
    const before = await scrape();
    const signIns = (outcome: string) =>
      before('gatehouse_sign_ins_total', { method: 'password', outcome });

    expect((await passwordSignIn(h.org.organization_id, 'ada@acme.test', PASSWORD)).status).toBe(
      200,
    );
    const wrong = await passwordSignIn(h.org.organization_id, 'ada@acme.test', `${PASSWORD}!`);
    expect(wrong.status).toBe(401);
    const strict = await mfaOrganization(h, 'strict');
    await h.admin.setMemberPassword(h.project.project_id, strict.member.member_id, {
      password: PASSWORD,
    });
    const pending = await passwordSignIn(strict.org.organization_id, strict.email, PASSWORD);
    expect(pending.ok && pending.data.member_authenticated).toBe(false);

    const after = await scrape();
    const now = (outcome: string) =>
      after('gatehouse_sign_ins_total', { method: 'password', outcome });
    expect(now('success') - signIns('success')).toBe(1);
    expect(now('failure') - signIns('failure')).toBe(1);
    expect(now('mfa_required') - signIns('mfa_required')).toBe(1);

    const route = ENDPOINTS.passwordsAuthenticate.path;
    const requests = (status: string) =>
      after('gatehouse_http_requests_total', { route, method: 'POST', status }) -
      before('gatehouse_http_requests_total', { route, method: 'POST', status });
    expect(requests('200')).toBe(2);
    expect(requests('401')).toBe(1);
    const latency = (s: typeof after) =>
      s('gatehouse_http_request_duration_seconds_count', { route, method: 'POST' });
    expect(latency(after) - latency(before)).toBe(3);
    expect(
      after('gatehouse_http_request_duration_seconds_sum', { route, method: 'POST' }),
    ).toBeGreaterThan(0);
  });

  it('counts a magic-link sign-in, and labels requests by route pattern, not by URL', async () => {
    const before = await scrape();
    await h.login();
    await h.request('/no/such/path/12345', { authorization: null });
    const jwks = ENDPOINTS.jwksByProject;
    await h.call(jwks, { params: { project_id: h.project.project_id } });
    const after = await scrape();
    const labels = { method: 'magic_link', outcome: 'success' };
    expect(
      after('gatehouse_sign_ins_total', labels) - before('gatehouse_sign_ins_total', labels),
    ).toBe(1);
    const unmatched = { route: 'unmatched', status: '404' };
    expect(
      after('gatehouse_http_requests_total', unmatched) -
        before('gatehouse_http_requests_total', unmatched),
    ).toBe(1);
    expect(after('gatehouse_http_requests_total', { route: jwks.path, status: '200' })).toBe(1);
  });

  it('counts rate-limit rejections by route', async () => {
    const route = ENDPOINTS.organizationsSearch.path;
    const before = await scrape();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.call(ENDPOINTS.organizationsSearch, {
        body: { organization_slug: 'acme' },
      });
      statuses.push(res.status);
    }
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThanOrEqual(2);
    const after = await scrape();
    expect(
      after('gatehouse_rate_limit_rejections_total', { route }) -
        before('gatehouse_rate_limit_rejections_total', { route }),
    ).toBe(refused);
  });

  it('reports the database: its kind, and the pool for PostgreSQL only', async () => {
    const metrics = await scrape();
    const postgres = Boolean(process.env.TEST_DATABASE_URL);
    expect(metrics('gatehouse_database_info', { dialect: postgres ? 'postgres' : 'sqlite' })).toBe(
      1,
    );
    const res = await fetch(`${h.url}/metrics`);
    expect((await res.text()).includes('gatehouse_db_pool_connections')).toBe(postgres);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a proxied caller only with the token, in the usual error body otherwise', async () => {
    const proxied = { 'x-forwarded-for': '203.0.113.9' };
    const without = await h.request('/metrics', { authorization: null, headers: proxied });
    expect(without.status).toBe(401);
    expect(without.error).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
    });
    expect(without.error?.request_id).toMatch(/^request-id-/);
    expect(without.headers.get('www-authenticate')).toContain('Bearer');
    const wrong = await h.request('/metrics', {
      authorization: `Bearer ${TOKEN.slice(0, -1)}x`,
      headers: proxied,
    });
    expect(wrong.status).toBe(401);
    const right = await h.request('/metrics', {
      authorization: `Bearer ${TOKEN}`,
      headers: proxied,
    });
    expect(right.status).toBe(200);
    expect(right.text).toContain('gatehouse_http_requests_total');
  });
});

/** This machine's first non-loopback IPv4 address, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i?.family === 'IPv4' && !i.internal)?.address;

describe('GET /metrics from another address', () => {
  let open: FastifyInstance;
  let guarded: FastifyInstance;
  const urls = { open: '', guarded: '' };
  beforeAll(async () => {
    open = await createServer({ databaseUrl: 'sqlite::memory:', devInbox: true });
    guarded = await createServer({
      databaseUrl: 'sqlite::memory:',
      devInbox: true,
      metricsToken: TOKEN,
    });
    for (const [name, app] of [
      ['open', open],
      ['guarded', guarded],
    ] as const) {
      await app.listen({ host: '0.0.0.0', port: 0 });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      urls[name] = `http://${external ?? '127.0.0.1'}:${address.port}`;
    }
  });
  afterAll(async () => {
    await open?.close();
    await guarded?.close();
  });

  it.skipIf(external === undefined)('is refused 403 without a token configured', async () => {
    const res = await fetch(`${urls.open}/metrics`);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error_type: 'unauthorized_action' });
  });

  it.skipIf(external === undefined)('is answered with the right token only', async () => {
    expect((await fetch(`${urls.guarded}/metrics`)).status).toBe(401);
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    expect((await fetch(`${urls.guarded}/metrics`, bearer('wrong-token-0123456789'))).status).toBe(
      401,
    );
    const res = await fetch(`${urls.guarded}/metrics`, bearer(TOKEN));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('gatehouse_database_info{dialect="sqlite"} 1');
  });

  it('keeps each server’s counts apart in one process', async () => {
    const loopback = (app: FastifyInstance) => {
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      return `http://127.0.0.1:${address.port}`;
    };
    await fetch(`${loopback(open)}/healthz`);
    await fetch(`${loopback(open)}/healthz`);
    const count = async (app: FastifyInstance) => {
      const samples = parse(await (await fetch(`${loopback(app)}/metrics`)).text());
      return samples.find(
        (s) => s.name === 'gatehouse_http_requests_total' && s.labels.route === '/healthz',
      )?.value;
    };
    expect(await count(open)).toBe(2);
    expect(await count(guarded)).toBeUndefined();
  });
});

describe('metricsAccess', () => {
  const caller = (remoteAddress: string, headers: Record<string, string> = {}) => ({
    remoteAddress,
    headers,
  });

  it('lets loopback callers in, by the socket address alone', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.53']) {
      expect(metricsAccess(caller(address), null), address).toBe('allowed');
      expect(metricsAccess(caller(address), TOKEN), address).toBe('allowed');
    }
  });

  it('never takes X-Forwarded-For for the address, and treats a proxied request as remote', () => {
    expect(metricsAccess(caller('10.0.0.5', { 'x-forwarded-for': '127.0.0.1' }), null)).toBe(
      'forbidden',
    );
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      expect(metricsAccess(caller('127.0.0.1', { [header]: '203.0.113.9' }), null), header).toBe(
        'forbidden',
      );
      expect(metricsAccess(caller('127.0.0.1', { [header]: '203.0.113.9' }), TOKEN), header).toBe(
        'unauthorized',
      );
    }
  });

  it('lets remote callers in with the token only', () => {
    const remote = (authorization?: string) =>
      metricsAccess(caller('10.0.0.5', authorization ? { authorization } : {}), TOKEN);
    expect(metricsAccess(caller('10.0.0.5'), null)).toBe('forbidden');
    expect(remote()).toBe('unauthorized');
    expect(remote(`Bearer ${TOKEN}`)).toBe('allowed');
    expect(remote(`bearer ${TOKEN}`)).toBe('allowed');
    expect(remote(`Bearer ${TOKEN}x`)).toBe('unauthorized');
    expect(remote(`Bearer ${TOKEN.slice(1)}`)).toBe('unauthorized');
    expect(remote(`Basic ${TOKEN}`)).toBe('unauthorized');
    expect(remote('Bearer ')).toBe('unauthorized');
  });
});

describe('sign-in outcomes and the pool', () => {
  it('reads the outcome from the answer', () => {
    expect(signInOutcome({ data: { member_authenticated: true } }, 200)).toBe('success');
    expect(signInOutcome({ data: { member_authenticated: false } }, 200)).toBe('mfa_required');
    expect(signInOutcome({ status_code: 401, error_type: 'unauthorized_credentials' }, 401)).toBe(
      'failure',
    );
    expect(signInOutcome({ status_code: 429 }, 429)).toBe('failure');
    expect(signInOutcome({ status_code: 500 }, 500)).toBe('error');
  });

  it('reports the PostgreSQL pool when scraped', async () => {
    const stats = { total: 7, idle: 3, waiting: 2, max: 10 };
    const metrics = new ServerMetrics({ dialect: 'postgres', poolStats: () => stats });
    const read = async () => parse(await metrics.registry.metrics());
    const value = (samples: Sample[], name: string) => samples.find((s) => s.name === name)?.value;
    let samples = await read();
    expect(value(samples, 'gatehouse_db_pool_connections')).toBe(7);
    expect(value(samples, 'gatehouse_db_pool_idle_connections')).toBe(3);
    expect(value(samples, 'gatehouse_db_pool_waiting_queries')).toBe(2);
    expect(value(samples, 'gatehouse_db_pool_max_connections')).toBe(10);
    stats.waiting = 0;
    samples = await read();
    expect(value(samples, 'gatehouse_db_pool_waiting_queries')).toBe(0);
    const sqlite = new ServerMetrics({ dialect: 'sqlite', poolStats: () => null });
    expect(await sqlite.registry.metrics()).not.toContain('gatehouse_db_pool');
  });
});
