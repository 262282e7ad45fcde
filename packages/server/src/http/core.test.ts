// The HTTP contract every endpoint shares: CORS, request ids, the error model and bad input.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  expectOk,
  startHarness,
  type CallRequestOptions,
  type Harness,
} from '../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ listen: true });
});
afterAll(async () => {
  await h.close();
});

/** The search path, for the untyped calls that send what the endpoint's type refuses. */
const search = '/b2b/organizations/search';
/** A valid organization search, with the request options under test. */
const searchAcme = (options: CallRequestOptions = {}) =>
  h.call(ENDPOINTS.organizationsSearch, { body: { organization_slug: 'acme' }, ...options });

describe('CORS', () => {
  it('answers preflights of trusted origins, credentials allowed', async () => {
    const res = await h.request(`/sdk/v1${search}`, {
      method: 'OPTIONS',
      authorization: null,
      contentType: null,
      origin: 'http://localhost:5173',
      headers: { 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, X-SDK-Client, X-SDK-Parent-Host',
    );
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('puts Allow-Origin and Allow-Credentials on successes, errors and 404s', async () => {
    const responses = [
      await searchAcme(),
      await h.sdk(search, { body: {} }),
      await h.request('/sdk/v1/nope', { method: 'POST', body: {} }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404]);
    for (const res of responses) {
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    }
  });

  it('allows loopback origins on any port in the test environment', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080']) {
      const res = await searchAcme({ origin });
      expect(res.status).toBe(200);
    }
  });

  it('refuses other origins with 403 unauthorized_origin, still readable cross-origin', async () => {
    const res = await searchAcme({ origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.error?.error_type).toBe('unauthorized_origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://evil.example');
  });

  it('falls back to X-SDK-Parent-Host when there is no Origin', async () => {
    const refused = await searchAcme({
      origin: null,
      headers: { 'x-sdk-parent-host': 'https://evil.example' },
    });
    expect(refused.status).toBe(403);
    const allowed = await searchAcme({
      origin: null,
      headers: { 'x-sdk-parent-host': 'http://localhost:4000' },
    });
    expect(allowed.status).toBe(200);
  });

  it('in live allows only the configured origins', async () => {
    const live = await h.admin.createProject({
      name: 'Live',
      environment: 'live',
      authorizedOrigins: ['https://app.example.com'],
    });
    const ok = await searchAcme({
      publicToken: live.public_token,
      origin: 'https://app.example.com',
    });
    expect(ok.status).toBe(200);
    expect(expectOk(ok).organization).toBeNull();
    const loopback = await searchAcme({ publicToken: live.public_token });
    expect(loopback.status).toBe(403);
    expect(loopback.error?.error_type).toBe('unauthorized_origin');
  });
});

describe('envelope and errors', () => {
  it('wraps successes in data with request_id and status_code, echoed in X-Request-Id', async () => {
    const res = await searchAcme();
    expect(res.status).toBe(200);
    expect(expectOk(res).status_code).toBe(200);
    expect(expectOk(res).request_id).toMatch(/^request-id-test-[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBe(expectOk(res).request_id);
  });

  it('sends errors flat with all five fields', async () => {
    const res = await searchAcme({ authorization: basic('public-token-test-nope', 'x') });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({
      status_code: 401,
      request_id: res.headers.get('x-request-id'),
      error_type: 'unauthorized_credentials',
      error_message: expect.any(String) as unknown,
      error_url: `${h.url}/docs/errors#unauthorized_credentials`,
    });
  });

  it('answers unknown routes and methods with 404 endpoint_not_found JSON', async () => {
    const routes = [
      await h.request('/sdk/v1/b2b/unknown', { method: 'POST', body: {} }),
      await h.request(`/sdk/v1${search}`, { method: 'GET' }),
      await h.request('/', { method: 'GET' }),
    ];
    for (const res of routes) {
      expect(res.status).toBe(404);
      expect(res.error?.error_type).toBe('endpoint_not_found');
      expect(res.error).not.toHaveProperty('body');
    }
  });

  it.each([
    ['malformed JSON', { rawBody: '{"organization_slug":' }, ''],
    [
      'wrong content type',
      { rawBody: 'organization_slug=acme', contentType: 'application/x-www-form-urlencoded' },
      '',
    ],
    ['a JSON array', { body: [] }, ''],
    ['a missing field', { body: {} }, '.organization_slug'],
    ['a mistyped field', { body: { organization_slug: 42 } }, '.organization_slug'],
    ['an empty field', { body: { organization_slug: '' } }, '.organization_slug'],
  ])('rejects %s with 400 invalid_request and a body list', async (_label, options, dataPath) => {
    // Untyped: each of these bodies is one the endpoint's type refuses.
    const res = await h.sdk(search, options);
    expect(res.status).toBe(400);
    expect(res.error?.error_type).toBe('invalid_request');
    expect(res.error?.error_message).toBe('Request does not match expected schema');
    expect(res.error?.body).toEqual([{ dataPath, message: expect.any(String) as unknown }]);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it('rejects missing, malformed and unknown public tokens with 401', async () => {
    for (const authorization of [
      null,
      'Bearer x',
      'Basic !!!',
      basic('not-a-token', 'x'),
      basic('public-token-test-0000', 'x'),
    ]) {
      const res = await searchAcme({ authorization });
      expect(res.status).toBe(401);
      expect(res.error?.error_type).toBe('unauthorized_credentials');
    }
  });

  it('ignores unknown keys and an invalid session on anonymous-capable calls', async () => {
    // Not a literal, so the compiler lets the key the type does not name through, as JSON would.
    const body = { organization_slug: 'acme', extra: true };
    const res = await h.call(ENDPOINTS.organizationsSearch, {
      body,
      token: 'stale-session-token',
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).organization?.organization_name).toBe('Acme');
  });

  it('answers malformed URLs with the same error model and CORS headers', async () => {
    for (const path of [
      '/sdk/v1/projects/bootstrap/%E0%A4%A',
      `/sdk/v1/projects/bootstrap/${'a'.repeat(500)}`,
    ]) {
      const res = await h.request(path);
      expect(res.status).toBe(400);
      expect(res.error?.error_type).toBe('invalid_request');
      expect(res.error?.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    }
  });

  it('answers requests the HTTP parser refuses (headers too large) with the error body', async () => {
    // Node's parser refuses headers over 16 KB before any hook runs.
    const res = await searchAcme({
      authorization: basic(h.project.public_token, 'x'.repeat(20_000)),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({
      status_code: 400,
      request_id: res.headers.get('x-request-id'),
      error_type: 'invalid_request',
      error_message: 'Request does not match expected schema',
      error_url: `${h.url}/docs/errors#invalid_request`,
      body: [{ dataPath: '', message: 'The request headers are too large.' }],
    });
  });

  it('never sends the captcha trigger text', async () => {
    const res = await h.sdk(search, { rawBody: 'Captcha required' });
    expect(res.text).not.toContain('Captcha required');
  });
});

describe('the NUL character', () => {
  // PostgreSQL cannot store U+0000 in text: found by fuzzing, once answered 500 there.
  it('is refused with 400 in a body, deep in a body, in a path and in a query', async () => {
    const inBody = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'ada\u0000@acme.test' },
    });
    expect([inBody.status, inBody.error?.error_type]).toEqual([400, 'invalid_request']);
    expect(inBody.error?.error_message).toBe('Text may not contain the NUL character (U+0000).');
    const deep = await h.call(ENDPOINTS.updateOrganization, {
      params: { organization_id: h.org.organization_id },
      body: { email_allowed_domains: ['acme.test', 'x\u0000.test'] },
    });
    expect(deep.status).toBe(400);
    const inPath = await h.request('/v1/b2b/organizations/%00', {
      authorization: basic(h.project.project_id, h.project.secret),
      origin: null,
    });
    expect([inPath.status, inPath.error?.error_type]).toEqual([400, 'invalid_request']);
    const inQuery = await h.request('/v1/public/sso/start?connection_id=%00');
    expect(inQuery.status).toBe(400);
    // In a key, and in text that spells the escape out (`\\u0000`) around a real one.
    for (const rawBody of ['{"email_address\\u0000":"ada@acme.test"}', '{"a":"\\\\\\u0000"}']) {
      const refused = await h.request(ENDPOINTS.magicLinksDiscoverySend.path, {
        method: 'POST',
        rawBody,
      });
      expect(refused.error?.error_message, rawBody).toBe(
        'Text may not contain the NUL character (U+0000).',
      );
    }
    // Also where a hook before validation looks the value up (CORS and the bootstrap token).
    const inToken = await h.request('/sdk/v1/projects/bootstrap/%00');
    expect([inToken.status, inToken.error?.error_type]).toEqual([400, 'invalid_request']);
    expect(
      expectOk(
        await h.call(ENDPOINTS.getOrganization, {
          params: { organization_id: h.org.organization_id },
        }),
      ).organization.email_allowed_domains,
    ).toEqual(['acme.test']);
  });

  it('is not found in a backslash followed by the text u0000', async () => {
    // JSON for the six characters \u0000: a body that holds the escape's text but no NUL.
    const res = await h.request(ENDPOINTS.magicLinksDiscoverySend.path, {
      method: 'POST',
      rawBody: '{"email_address":"\\\\u0000@acme.test"}',
    });
    // A backslash may stand in an address's quoted local part: sent, not refused.
    expect([res.status, res.error]).toEqual([200, undefined]);
  });
});
