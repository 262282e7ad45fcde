// Liveness, readiness and the error reference page that every error_url points at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TYPES } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { basic, expectError, startHarness, type Harness } from '../test/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ listen: true });
});

afterAll(async () => {
  await h?.close();
});

describe('operations', () => {
  it('answers liveness and readiness', async () => {
    const live = await h.request('/healthz', { authorization: null, origin: null });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await h.request('/readyz', { authorization: null, origin: null });
    expect(ready.status).toBe(200);
    // The harness has no SMTP: its messages go to the dev inbox, which readiness reports.
    expect(ready.body).toEqual({ status: 'ready', smtp: { state: 'dev_inbox' } });
  });

  it('is not ready while a migration is missing', async () => {
    const newest = await h.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    const name = (newest as { name: string }).name;
    await h.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', name as never)
      .execute();
    const res = await h.request('/readyz', { authorization: null, origin: null });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: 'not ready',
      problem: `migrations not applied: ${name}`,
      smtp: { state: 'dev_inbox' },
    });
  });

  it('serves the page error_url points at, describing every error type', async () => {
    const failed = await h.call(ENDPOINTS.organizationsSearch, {
      body: { organization_slug: 'acme' },
      authorization: basic('public-token-test-nope', 'x'),
    });
    const url = expectError(failed).error_url;
    expect(url).toBe(`${h.url}/docs/errors#unauthorized_credentials`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    for (const type of ERROR_TYPES) expect(html).toContain(`<tr id="${type}">`);
  });
});
