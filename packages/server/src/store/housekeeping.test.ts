// Housekeeping deletes only rows that expired more than a day ago.
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access -- tests assert on untyped JSON response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../test/harness.js';
import { purgeExpired } from './housekeeping.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('purgeExpired', () => {
  it('keeps live and recently expired rows, deletes old ones', async () => {
    const login = await h.login();
    await h.sdk('/b2b/magic_links/email/discovery/send', {
      body: { email_address: 'ada@acme.test' },
    });
    expect(await purgeExpired(h.db, h.clock.now)).toEqual({
      tokens: 0,
      intermediateSessions: 0,
      sessions: 0,
      rateLimits: 0,
    });
    const later = h.clock.now + 2 * 24 * 60 * 60 * 1000;
    const purged = await purgeExpired(h.db, later);
    expect(purged.tokens).toBe(2);
    expect(purged.sessions).toBe(1);
    h.clock.now = later;
    const res = await h.sdk('/b2b/sessions/authenticate', { body: {}, token: login.session_token });
    expect(res.body.error_type).toBe('session_not_found');
  });
});
