// A bad-input sweep over every SDK endpoint: each kind of bad request gets a 4xx with error_type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startHarness, type Harness } from '../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** Each endpoint with a field that is required and a string. */
const ENDPOINTS: [path: string, field: string][] = [
  ['/b2b/organizations/search', 'organization_slug'],
  ['/b2b/organizations/members/search', 'email_address'],
  ['/b2b/magic_links/email/login_or_signup', 'email_address'],
  ['/b2b/magic_links/email/discovery/send', 'email_address'],
  ['/b2b/magic_links/authenticate', 'magic_links_token'],
  ['/b2b/magic_links/discovery/authenticate', 'discovery_magic_links_token'],
  ['/b2b/discovery/intermediate_sessions/exchange', 'organization_id'],
  ['/b2b/sessions/exchange', 'organization_id'],
];

// Untyped calls on purpose: every body here is one the endpoint table's types refuse.
describe.each(ENDPOINTS)('POST %s', (path, field) => {
  it('refuses malformed JSON, wrong content, missing and mistyped fields with 400', async () => {
    const session = (await h.login()).session_token;
    const cases = [
      { rawBody: '{"a":' },
      { rawBody: 'a=b', contentType: 'application/x-www-form-urlencoded' },
      { body: [] },
      { body: {} },
      { body: { [field]: 12 } },
      { body: { [field]: { nested: true } } },
    ];
    for (const options of cases) {
      const res = await h.sdk(path, { ...options, token: session });
      expect(res.status, `${path} ${JSON.stringify(options)}`).toBe(400);
      expect(res.error?.error_type).toBe('invalid_request');
      expect(Array.isArray(res.error?.body)).toBe(true);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    }
    const missing = await h.sdk(path, { body: {}, token: session });
    expect(missing.error?.body).toContainEqual({ dataPath: `.${field}`, message: 'is required' });
  });

  it('refuses an unknown public token with 401 and a foreign origin with 403', async () => {
    const unknown = await h.sdk(path, {
      body: {},
      authorization: basic('public-token-test-00000000-0000-4000-8000-000000000000', 'x'),
    });
    expect([unknown.status, unknown.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const foreign = await h.sdk(path, { body: {}, origin: 'https://evil.example' });
    expect([foreign.status, foreign.error?.error_type]).toEqual([403, 'unauthorized_origin']);
  });
});
