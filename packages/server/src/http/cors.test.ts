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

describe('credentialed calls (the published SDK 6.x sends cookies along)', () => {
  const APP = 'https://app.example.com';
  const OTHER = 'https://other.example.com';
  let live: { project_id: string; public_token: string };
  beforeAll(async () => {
    live = await h.admin.createProject({
      name: 'Credentialed',
      environment: 'live',
      authorizedOrigins: [APP],
    });
    await h.admin.createProject({ name: 'Other', environment: 'live', authorizedOrigins: [OTHER] });
  });

  const preflight = (origin: string | null, path = '/b2b/organizations/search') =>
    h.request(`/sdk/v1${path}`, {
      method: 'OPTIONS',
      authorization: null,
      contentType: null,
      origin,
      headers: {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-sdk-client',
      },
    });
  const search = (publicToken: string, origin: string | null) =>
    h.call(ENDPOINTS.organizationsSearch, {
      publicToken,
      body: { organization_slug: 'acme' },
      origin,
    });
  const expectCredentialed = (res: { headers: Headers }, origin: string) => {
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
  };

  it('answers the preflight of a trusted origin with its exact origin and credentials', async () => {
    for (const origin of [APP, OTHER, 'http://localhost:5173', 'http://127.0.0.1:8080']) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expectCredentialed(res, origin);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toContain('X-SDK-Client');
    }
  });

  it('gives the preflight of an origin no project trusts no allow headers', async () => {
    for (const origin of [EVIL, 'null', 'https://app.example.com.evil.example']) {
      const res = await preflight(origin);
      expect(corsHeaders(res)).toEqual([]);
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    }
  });

  it('allows credentials on the responses to the origin the named project trusts', async () => {
    const res = await search(live.public_token, APP);
    expect(res.status).toBe(200);
    expectCredentialed(res, APP);
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    // Loopback pages of a test project.
    expectCredentialed(
      await search(h.project.public_token, 'http://localhost:3000'),
      'http://localhost:3000',
    );
  });

  it('refuses other origins with 403 unauthorized_origin and no credentials', async () => {
    // Trusted by another project only: its preflight passes, the call itself does not.
    for (const origin of [OTHER, EVIL, 'http://localhost:3000']) {
      const res = await search(live.public_token, origin);
      expect(res.status).toBe(403);
      expect(res.error?.error_type).toBe('unauthorized_origin');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('decides alike for a project just looked up and one remembered from the call before', async () => {
    for (const when of ['looked up', 'remembered']) {
      if (when === 'looked up') await h.admin.updateProject(live.project_id, {});
      const trusted = await search(live.public_token, APP);
      expect([when, trusted.status]).toEqual([when, 200]);
      expectCredentialed(trusted, APP);
      const refused = await search(live.public_token, OTHER);
      expect([when, refused.status, refused.error?.error_type]).toEqual([
        when,
        403,
        'unauthorized_origin',
      ]);
      expect(refused.headers.get('access-control-allow-credentials')).toBeNull();
      // No page: no origin to check, and nothing allowed with credentials.
      const tool = await search(live.public_token, null);
      expect([when, tool.status, tool.headers.get('access-control-allow-origin')]).toEqual([
        when,
        200,
        '*',
      ]);
    }
  });

  it('judges calls that name no project by the origins of all projects', async () => {
    const events = (origin: string) =>
      h.call(ENDPOINTS.events, { authorization: null, body: [], origin });
    expectCredentialed(await events(APP), APP);
    expect((await events(EVIL)).headers.get('access-control-allow-credentials')).toBeNull();
    const unknown = 'public-token-live-00000000-0000-4000-8000-000000000000';
    const refused = await search(unknown, APP);
    expect(refused.status).toBe(401);
    expectCredentialed(refused, APP);
  });

  it('never pairs credentials with a wildcard origin', async () => {
    const responses = [
      await preflight(null),
      await search(h.project.public_token, null),
      await h.request('/sdk/v1/nope', { origin: null }),
    ];
    for (const res of responses) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    for (const origin of [APP, 'http://localhost:3000']) {
      const unknownPath = await h.request('/sdk/v1/nope', { authorization: null, origin });
      for (const res of [await preflight(origin), unknownPath]) {
        expect(res.headers.get('access-control-allow-credentials')).toBe('true');
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      }
    }
  });

  it('allows credentials to a trusted page, yet its cookies carry no authority', async () => {
    const { session_token, session_jwt } = await h.login();
    const cookie = [
      `stytch_session=${session_token}`,
      `stytch_session_jwt=${session_jwt}`,
      `gatehouse_session=${session_token}`,
      `gatehouse_session_jwt=${session_jwt}`,
    ].join('; ');
    // Anonymous in `Authorization`, signed in by cookie: the server goes by the header alone.
    const res = await h.call(ENDPOINTS.sessionsAuthenticate, {
      body: {},
      origin: 'http://localhost:3000',
      headers: { cookie },
    });
    expect(res.status).toBe(401);
    expect(res.error?.error_type).toBe('unauthorized_credentials');
    expect(res.headers.get('set-cookie')).toBeNull();
    // Credentials allowed to the trusted page, and still no authority in them.
    expectCredentialed(res, 'http://localhost:3000');
  });

  it('follows changes of the projects’ origins at once, and other servers’ within seconds', async () => {
    const NEW = 'https://new.example.com';
    expect(corsHeaders(await preflight(NEW))).toEqual([]);
    const created = await h.admin.createProject({
      name: 'New',
      environment: 'live',
      authorizedOrigins: [NEW],
    });
    expectCredentialed(await preflight(NEW), NEW);
    await h.admin.updateProject(created.project_id, { authorizedOrigins: [] });
    expect(corsHeaders(await preflight(NEW))).toEqual([]);

    // Another server lists it: preflights keep their in-memory answer until it is a few seconds old.
    await h.db
      .updateTable('projects')
      .set({ authorized_origins: JSON.stringify([NEW]) })
      .where('id', '=', created.project_id)
      .execute();
    expect(corsHeaders(await preflight(NEW))).toEqual([]);
    h.clock.advance(6_000);
    expectCredentialed(await preflight(NEW), NEW);
  });
});
