// Telemetry: batches of at most 15, flushed every 800 ms, unauthenticated, failures ignored.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventsBody } from '@gatehouse/protocol';
import { installFakeApi, ok } from './test/fake-api.js';
import { PUBLIC_TOKEN } from '@gatehouse/testing';
import { BASE_URL, cleanup, makeClient } from './test/harness.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(cleanup);

function eventsApi(respond = () => ok({})) {
  const api = installFakeApi({ '/events': respond });
  const batches = () =>
    api
      .calls()
      .filter((r) => r.path === '/events')
      .map((r) => r.body as EventsBody);
  return { api, batches };
}

describe('logEvent', () => {
  it('posts queued events 800 ms after the first, without Authorization', async () => {
    const { api, batches } = eventsApi();
    const client = makeClient();
    client.logEvent('render_b2b_login_screen', { options: { products: ['emailMagicLinks'] } });
    await vi.advanceTimersByTimeAsync(400);
    client.logEvent('b2b_sdk_instance_instantiated');
    await vi.advanceTimersByTimeAsync(399);
    expect(batches()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);

    const [batch] = batches();
    expect(batch?.map((item) => item.event)).toEqual([
      {
        public_token: PUBLIC_TOKEN,
        event_name: 'render_b2b_login_screen',
        details: { options: { products: ['emailMagicLinks'] } },
      },
      { public_token: PUBLIC_TOKEN, event_name: 'b2b_sdk_instance_instantiated', details: {} },
    ]);
    const telemetry = batch?.[0]?.telemetry;
    expect(telemetry?.event_id).toMatch(/^event-id-[0-9a-f-]{36}$/);
    expect(telemetry?.app_session_id).toMatch(/^app-session-id-[0-9a-f-]{36}$/);
    expect(telemetry?.persistent_id).toMatch(/^persistent-id-[0-9a-f-]{36}$/);
    expect(telemetry?.app).toEqual({ identifier: window.location.hostname });
    expect(telemetry?.sdk.identifier).toBe('gatehouse-client-js');
    expect(batch?.[1]?.telemetry.event_id).not.toBe(telemetry?.event_id);

    const request = api.calls().find((r) => r.path === '/events');
    expect(request?.url).toBe(`${BASE_URL}/sdk/v1/events`);
    expect(request?.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('flushes immediately at 15 events and sends the rest later', async () => {
    const { batches } = eventsApi();
    const client = makeClient();
    for (let i = 0; i < 17; i++) client.logEvent(`event_${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches().map((b) => b.length)).toEqual([15]);
    await vi.advanceTimersByTimeAsync(800);
    expect(batches().map((b) => b.length)).toEqual([15, 2]);
    expect(batches()[1]?.map((i) => i.event.event_name)).toEqual(['event_15', 'event_16']);
  });

  it('ignores failures of the events endpoint and keeps sending later batches', async () => {
    let attempts = 0;
    const { batches } = eventsApi(() => {
      attempts += 1;
      if (attempts === 1) throw new TypeError('Failed to fetch');
      return new Response('oops', { status: 500 });
    });
    const client = makeClient();
    client.logEvent('one');
    await vi.advanceTimersByTimeAsync(800);
    client.logEvent('two');
    await vi.advanceTimersByTimeAsync(800);
    // Both attempts were made and neither failure escaped as an unhandled rejection.
    expect(batches().map((b) => b.map((i) => i.event.event_name))).toEqual([['one'], ['two']]);
  });

  it('keeps one persistent id per browser and a new app session per client', async () => {
    const { batches } = eventsApi();
    const first = makeClient();
    first.logEvent('a');
    await vi.advanceTimersByTimeAsync(800);
    first.destroy();
    makeClient().logEvent('b');
    await vi.advanceTimersByTimeAsync(800);
    const [a, b] = batches().map((batch) => batch[0]?.telemetry);
    expect(b?.persistent_id).toBe(a?.persistent_id);
    expect(b?.app_session_id).not.toBe(a?.app_session_id);
  });

  it('sends what is queued when the client is destroyed', async () => {
    const { batches } = eventsApi();
    const client = makeClient();
    client.logEvent('last');
    client.destroy();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches().map((b) => b.length)).toEqual([1]);
  });
});
