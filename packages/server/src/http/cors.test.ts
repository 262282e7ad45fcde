// CORS belongs to the SDK API alone, and an untrusted origin is refused before any handler runs.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const EVIL = 'https://evil.example';
const corsHeaders = (res: { headers: Headers }) =>
  [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS outside the SDK API', () => {
  it('sends none on the management API, the JWKS, unknown paths or their preflights', async () => {
    const responses = [
      await h.call(ENDPOINTS.getOrganization, {
        params: { organization_id: h.org.organization_id },
        origin: EVIL,
      }),
      // Untyped: no secret and an empty body, refused before the body matters.
      await h.request('/v1/b2b/organizations', { method: 'POST', body: {}, origin: EVIL }),
      await h.call(ENDPOINTS.jwks, { authorization: null, origin: EVIL }),
      await h.request('/nope', { authorization: null, origin: EVIL }),
      await h.request('/v1/b2b/organizations', {
        method: 'OPTIONS',
        authorization: null,
        origin: EVIL,
        headers: { 'access-control-request-method': 'POST' },
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 200, 404, 404]);
    for (const res of responses) {
      expect(corsHeaders(res)).toEqual([]);
      // The request id is still there for support, just not readable by other sites.
      expect(res.headers.get('x-request-id')).toMatch(/^request-id-/);
    }
  });
});

describe('origins on the SDK API', () => {
  it('refuses an untrusted origin before the body is even read', async () => {
    // A handler would answer 400 for this body (hence untyped); the origin check comes first.
    const res = await h.sdk('/b2b/magic_links/email/login_or_signup', {
      rawBody: '{not json',
      origin: EVIL,
    });
    expect(res.status).toBe(403);
    expect(res.error?.error_type).toBe('unauthorized_origin');
    expect(res.headers.get('access-control-allow-origin')).toBe(EVIL);
  });

  it('gives an untrusted origin no data and no side effects', async () => {
    const before = (await h.admin.listOutbox({ limit: 1000 })).length;
    const sent = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
      origin: EVIL,
    });
    expect(sent.status).toBe(403);
    expect((await h.admin.listOutbox({ limit: 1000 })).length).toBe(before);
    const bootstrap = await h.call(ENDPOINTS.bootstrap, {
      params: { public_token: h.project.public_token },
      authorization: null,
      origin: EVIL,
    });
    expect(bootstrap.status).toBe(403);
    expect(bootstrap.body).not.toHaveProperty('data');
  });

  it('applies the live rule: only listed origins, not even localhost', async () => {
    const live = await h.admin.createProject({
      name: 'Production',
      environment: 'live',
      authorizedOrigins: ['https://app.example.com'],
    });
    const bootstrap = (origin: string) =>
      h.call(ENDPOINTS.bootstrap, {
        params: { public_token: live.public_token },
        authorization: null,
        origin,
      });
    expect((await bootstrap('http://localhost:3000')).status).toBe(403);
    expect((await bootstrap('https://app.example.com')).status).toBe(200);
    // Untyped: a body no handler would take, to show the origin check comes first.
    const search = await h.sdk('/b2b/organizations/search', {
      publicToken: live.public_token,
      rawBody: '{not json',
      origin: 'http://localhost:3000',
    });
    expect(search.status).toBe(403);
    expect(search.error?.error_type).toBe('unauthorized_origin');
  });

  it('leaves requests that name no project to their handlers', async () => {
    const events = await h.call(ENDPOINTS.events, {
      authorization: null,
      body: [],
      origin: EVIL,
    });
    expect(events.status).toBe(200);
    const unknown = await h.call(ENDPOINTS.organizationsSearch, {
      publicToken: 'public-token-test-00000000-0000-4000-8000-000000000000',
      body: { organization_slug: 'acme' },
      origin: EVIL,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('access-control-allow-origin')).toBe(EVIL);
  });
});
