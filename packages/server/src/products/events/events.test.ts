// Events (§7.9): no auth, arrays only, filed by public token, unknown tokens dropped; bounded, never a 5xx.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness.js';
import { purgeExpired } from '../../store/housekeeping.js';
import { listEvents } from './store.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const telemetry = {
  event_id: 'event-id-1',
  app_session_id: 'a',
  persistent_id: 'p',
  client_sent_at: new Date().toISOString(),
  timezone: 'UTC',
  app: { identifier: 'localhost' },
  sdk: { identifier: 'test', version: '1' },
};

describe('POST /sdk/v1/events', () => {
  it('stores events of known projects without Authorization and answers {data:{}}', async () => {
    const res = await h.call(ENDPOINTS.events, {
      authorization: null,
      body: [
        {
          telemetry,
          event: {
            public_token: h.project.public_token,
            event_name: 'b2b_sdk_instance_instantiated',
            details: {},
          },
        },
        {
          telemetry,
          event: { public_token: 'public-token-test-unknown', event_name: 'ignored', details: {} },
        },
        { nonsense: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: {} });
    // Read straight from the database file: events are not exposed over HTTP.
    const stored = await listEvents(h.db, h.project.project_id);
    expect(stored.map((e) => e.event_name)).toEqual(['b2b_sdk_instance_instantiated']);
  });

  it('answers 400 when the body is not an array', async () => {
    // Untyped: none of these bodies is the array the endpoint's type asks for.
    for (const body of [{}, 'x', null]) {
      const res = await h.sdk('/events', { authorization: null, body });
      expect(res.status).toBe(400);
      expect(res.error?.error_type).toBe('invalid_request');
    }
    const empty = await h.sdk('/events', { authorization: null });
    expect(empty.status).toBe(400);
  });
});

/** One well-formed item of the seeded project. */
function item(event_name: string, extra: Record<string, unknown> = {}) {
  return {
    telemetry,
    event: { public_token: h.project.public_token, event_name, details: {}, ...extra },
  };
}

async function storedNames(): Promise<string[]> {
  return (await listEvents(h.db, h.project.project_id)).map((e) => e.event_name);
}

describe('POST /sdk/v1/events bounds', () => {
  it('keeps only the known fields of §7.9, with long strings cut', async () => {
    const res = await h.call(ENDPOINTS.events, {
      authorization: null,
      body: [
        {
          telemetry: { ...telemetry, timezone: 'x'.repeat(5000), injected: 'y'.repeat(5000) },
          event: {
            public_token: h.project.public_token,
            event_name: 'render_b2b_login_screen',
            details: { options: { products: ['emailMagicLinks'] } },
            error_code: 'E1',
            error_description: 'boom',
            http_status_code: 500,
            extra: 'z'.repeat(5000),
          },
          also: { not: 'kept' },
        },
      ],
    });
    expect(res.status).toBe(200);
    const stored = await listEvents(h.db, h.project.project_id);
    expect(stored.at(-1)?.payload).toEqual({
      telemetry: { ...telemetry, timezone: 'x'.repeat(256) },
      event: {
        public_token: h.project.public_token,
        event_name: 'render_b2b_login_screen',
        details: { options: { products: ['emailMagicLinks'] } },
        error_code: 'E1',
        error_description: 'boom',
        http_status_code: 500,
      },
    });
  });

  it('answers 200 for a deeply nested item and stores it without the nesting', async () => {
    const depth = 5000;
    const details = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const rawBody = `[{"telemetry":{},"event":{"public_token":"${h.project.public_token}","event_name":"deep","details":${details}}}]`;
    // Untyped: the body is sent as raw text, nested deeper than any object literal would be.
    const res = await h.sdk('/events', { authorization: null, rawBody });
    expect([res.status, res.body]).toEqual([200, { data: {} }]);
    const stored = await listEvents(h.db, h.project.project_id);
    expect(stored.at(-1)).toEqual({
      event_name: 'deep',
      payload: {
        telemetry: {},
        event: { public_token: h.project.public_token, event_name: 'deep', details: {} },
      },
    });
  });

  it('drops oversized details and items whose token or name is not printable', async () => {
    const before = (await storedNames()).length;
    const res = await h.call(ENDPOINTS.events, {
      authorization: null,
      body: [
        item('big_details', { details: { blob: 'b'.repeat(10_000) } }),
        item('nul\u0000name'),
        { telemetry, event: { public_token: `${h.project.public_token}\u0000`, event_name: 'x' } },
        { telemetry, event: { public_token: 42, event_name: 'x' } },
      ],
    });
    expect(res.status).toBe(200);
    const stored = await listEvents(h.db, h.project.project_id);
    expect(stored.slice(before)).toEqual([
      {
        event_name: 'big_details',
        payload: {
          telemetry,
          event: { public_token: h.project.public_token, event_name: 'big_details', details: {} },
        },
      },
    ]);
  });

  it('refuses batches over 64 KiB or 50 items with 400, storing nothing', async () => {
    const before = (await storedNames()).length;
    // What used to fill the table: batches of about 246 KB.
    const heavy = Array.from({ length: 40 }, (_, i) =>
      item(`heavy_${i}`, { details: { blob: 'h'.repeat(6000) } }),
    );
    for (let i = 0; i < 3; i += 1) {
      const res = await h.call(ENDPOINTS.events, { authorization: null, body: heavy });
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
    const many = await h.call(ENDPOINTS.events, {
      authorization: null,
      body: Array.from({ length: 51 }, (_, i) => item(`many_${i}`)),
    });
    expect([many.status, many.error?.error_type]).toEqual([400, 'invalid_request']);
    expect((await storedNames()).length).toBe(before);
  });

  it('limits batches per IP with 429 and Retry-After', async () => {
    const limited = await startHarness({
      config: { rateLimits: { eventBatchesPerIpPerMinute: 3 } },
    });
    try {
      const send = () =>
        limited.call(ENDPOINTS.events, {
          authorization: null,
          body: [
            {
              telemetry,
              event: { public_token: limited.project.public_token, event_name: 'e', details: {} },
            },
          ],
        });
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await send()).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await send();
      expect(refused.error?.error_type).toBe('too_many_requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await listEvents(limited.db, limited.project.project_id)).toHaveLength(3);
      limited.clock.advance(61_000);
      expect((await send()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('purges events older than the retention (30 days by default, configurable)', async () => {
    await h.call(ENDPOINTS.events, { authorization: null, body: [item('old_one')] });
    const day = 24 * 60 * 60 * 1000;
    expect((await purgeExpired(h.db, h.clock.now + 29 * day)).events).toBe(0);
    expect(await storedNames()).toContain('old_one');
    expect(
      (await purgeExpired(h.db, h.clock.now + 8 * day, { eventRetentionDays: 7 })).events,
    ).toBeGreaterThan(0);
    expect(await storedNames()).toEqual([]);
  });
});
