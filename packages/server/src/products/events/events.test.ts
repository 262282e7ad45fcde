// Events (§7.9): no auth, arrays only, filed by public token, unknown tokens dropped.
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests assert on untyped JSON response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness.js';
import { listEvents } from './service.js';

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
    const res = await h.sdk('/events', {
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
    for (const body of [{}, 'x', null]) {
      const res = await h.sdk('/events', { authorization: null, body });
      expect(res.status).toBe(400);
      expect(res.body.error_type).toBe('invalid_request');
    }
    const empty = await h.sdk('/events', { authorization: null });
    expect(empty.status).toBe(400);
  });
});
