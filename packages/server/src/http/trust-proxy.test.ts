// Behind a trusted proxy, per-IP limits count the address the proxy saw, whatever the client wrote.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, type ServerConfig } from '../config.js';
import { startHarness, type Harness } from '../test/harness.js';
import { createServer } from './app.js';

const LIMIT = 3;
const CLIENT = '203.0.113.9';
const OTHER_CLIENT = '203.0.113.10';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * An organization search as it arrives from a proxy that appends the address it saw to whatever
 * `X-Forwarded-For` the client sent (here a different forged address each time).
 */
function searchVia(harness: Harness, forged: string, client: string) {
  return harness.call(ENDPOINTS.organizationsSearch, {
    body: { organization_slug: 'acme' },
    headers: { 'x-forwarded-for': `${forged}, ${client}` },
  });
}

async function expectLimitHolds(config: ServerConfig): Promise<void> {
  h = await startHarness({
    listen: true,
    config: { ...config, rateLimits: { searchesPerIpPerMinute: LIMIT } },
  });
  const harness = h;
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 2; i += 1) {
    statuses.push((await searchVia(harness, `198.51.100.${i + 1}`, CLIENT)).status);
  }
  expect(statuses).toEqual([200, 200, 200, 429, 429]);
  const limited = await searchVia(harness, '10.9.8.7', CLIENT);
  expect(limited.error?.error_type).toBe('too_many_requests');
  // The limit is per client, not per proxy: someone else behind it is still served.
  expect((await searchVia(harness, '198.51.100.1', OTHER_CLIENT)).status).toBe(200);
}

describe('trusted proxies', () => {
  it('with the proxy address listed, rotating forged X-Forwarded-For values still hit the limit', async () => {
    // The test client on 127.0.0.1 plays the proxy.
    await expectLimitHolds({ trustProxy: '127.0.0.1' });
  });

  it('with a hop count of 1 (TRUST_PROXY=1), the same holds', async () => {
    await expectLimitHolds(configFromEnv({ TRUST_PROXY: '1' }));
  });

  it('refuses TRUST_PROXY=true at start', async () => {
    const config = { ...configFromEnv({ TRUST_PROXY: 'true' }), databaseUrl: 'sqlite::memory:' };
    await expect(createServer({ ...config, devInbox: true })).rejects.toThrow(/cannot be true/);
  });
});
