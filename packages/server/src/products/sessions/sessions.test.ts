// Sessions (§7.5, §14) and session JWTs verified against the published JWKS.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ listen: true });
});
afterAll(async () => {
  await h.close();
});

const authenticate = (token: string, body: RequestOf<typeof ENDPOINTS.sessionsAuthenticate> = {}) =>
  h.call(ENDPOINTS.sessionsAuthenticate, { body, token });

describe('sessions/authenticate', () => {
  it('returns F with the same token, a fresh JWT, and moves last_accessed_at', async () => {
    const login = await h.login();
    h.clock.advance(60_000);
    const res = await authenticate(login.session_token);
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.session_token).toBe(login.session_token);
    expect(data.session_jwt).not.toBe(login.session_jwt);
    expect(data.member_authenticated).toBe(true);
    expect(data.mfa_required).toBeNull();
    expect(data.intermediate_session_token).toBe('');
    expect(data.member_session.expires_at).toBe(login.member_session.expires_at);
    expect(Date.parse(data.member_session.last_accessed_at)).toBe(
      Date.parse(login.member_session.last_accessed_at) + 60_000,
    );
  });

  it('records accesses to 30 seconds: a refresh sooner than that writes nothing', async () => {
    const login = await h.login();
    const stored = () =>
      h.db
        .selectFrom('sessions')
        .select(['last_accessed_at', 'expires_at'])
        .where('id', '=', login.member_session.member_session_id)
        .executeTakeFirstOrThrow();
    const before = await stored();
    h.clock.advance(10_000);
    const soon = expectOk(await authenticate(login.session_token));
    expect(await stored()).toEqual(before);
    expect(soon.member_session.last_accessed_at).toBe(login.member_session.last_accessed_at);
    h.clock.advance(25_000);
    const later = expectOk(await authenticate(login.session_token));
    expect(Date.parse(later.member_session.last_accessed_at)).toBe(h.clock.now);
    expect((await stored()).last_accessed_at).toBe(later.member_session.last_accessed_at);
    // A new expiry is always written.
    const longer = expectOk(
      await authenticate(login.session_token, { session_duration_minutes: 600 }),
    );
    expect((await stored()).expires_at).toBe(longer.member_session.expires_at);
  });

  it('resets the expiry when a duration is given, within bounds', async () => {
    const login = await h.login();
    const res = await authenticate(login.session_token, { session_duration_minutes: 600 });
    expect(Date.parse(expectOk(res).member_session.expires_at) - h.clock.now).toBe(600 * 60_000);
    const bad = await authenticate(login.session_token, { session_duration_minutes: 1 });
    expect(bad.status).toBe(400);
    expect(bad.error?.body?.[0]?.dataPath).toBe('.session_duration_minutes');
  });

  it('answers 401 without a session and 404 session_not_found for dead ones', async () => {
    const anonymous = await h.call(ENDPOINTS.sessionsAuthenticate, { body: {} });
    expect([anonymous.status, anonymous.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    const unknown = await authenticate('x'.repeat(43));
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'session_not_found']);

    const login = await h.login();
    h.clock.advance(61 * 60_000);
    const expired = await authenticate(login.session_token);
    expect(expired.error?.error_type).toBe('session_not_found');
  });

  it('does not accept a session token of another project', async () => {
    const login = await h.login();
    const other = await h.admin.createProject({ name: 'Other' });
    const res = await h.call(ENDPOINTS.sessionsAuthenticate, {
      body: {},
      publicToken: other.public_token,
      token: login.session_token,
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it('signs JWTs that verify against both JWKS endpoints, with the documented claims', async () => {
    const login = await h.login();
    const jwt = login.session_jwt;
    for (const [path, fetchKeys] of [
      [ENDPOINTS.jwks.path, () => h.call(ENDPOINTS.jwks)],
      [
        `/v1/b2b/sessions/jwks/${h.project.project_id}`,
        () => h.call(ENDPOINTS.jwksByProject, { params: { project_id: h.project.project_id } }),
      ],
    ] as const) {
      const jwks = await fetchKeys();
      expect(jwks.status).toBe(200);
      const [key] = expectOk(jwks).keys;
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(key?.d).toBeUndefined();
      const { payload } = await jwtVerify(jwt, createRemoteJWKSet(new URL(`${h.url}${path}`)), {
        issuer: h.url,
        audience: h.project.project_id,
        currentDate: new Date(h.clock.now),
      });
      expect(payload.sub).toBe(login.member_id);
      expect(payload.roles).toBeUndefined();
      expect(payload['https://stytch.com/organization']).toEqual({
        organization_id: h.org.organization_id,
        slug: 'acme',
      });
      expect(payload['https://stytch.com/session']).toEqual({
        id: login.member_session.member_session_id,
        started_at: login.member_session.started_at,
        last_accessed_at: login.member_session.last_accessed_at,
        expires_at: login.member_session.expires_at,
        // The browser that signed in (session-client.test.ts checks the values in detail).
        attributes: { ip_address: '127.0.0.1', user_agent: expect.stringMatching(/.+/) as string },
        authentication_factors: login.member_session.authentication_factors,
        roles: ['member'],
      });
    }
    const claims = decodeJwt(jwt);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
  });

  it('hands out a JWT signed in the last 30 s again, unless the session changed', async () => {
    const login = await h.login();
    h.clock.advance(60_000);
    const jwtNow = async () => expectOk(await authenticate(login.session_token)).session_jwt;
    const first = await jwtNow();
    h.clock.advance(10_000);
    expect(await jwtNow()).toBe(first);
    h.clock.advance(25_000);
    const afterWindow = await jwtNow();
    expect(afterWindow).not.toBe(first);
    const extended = await authenticate(login.session_token, { session_duration_minutes: 90 });
    expect(expectOk(extended).session_jwt).not.toBe(afterWindow);
    expect(decodeJwt(expectOk(extended).session_jwt).exp).toBeGreaterThan(h.clock.now / 1000 + 270);
  });

  it('never lets the JWT outlive the session', async () => {
    const login = await h.login();
    const res = await authenticate(login.session_token, { session_duration_minutes: 5 });
    h.clock.advance(3 * 60_000);
    const later = await authenticate(login.session_token);
    const exp = decodeJwt(expectOk(later).session_jwt).exp ?? 0;
    expect(exp * 1000).toBeLessThanOrEqual(Date.parse(expectOk(res).member_session.expires_at));
  });
});

describe('sessions/revoke', () => {
  it('ends the session; later calls get 404 session_not_found', async () => {
    const login = await h.login();
    const res = await h.call(ENDPOINTS.sessionsRevoke, { token: login.session_token });
    expect(res.status).toBe(200);
    expect(Object.keys(expectOk(res)).sort()).toEqual(['request_id', 'status_code']);
    const after = await authenticate(login.session_token);
    expect(after.error?.error_type).toBe('session_not_found');
    const again = await h.call(ENDPOINTS.sessionsRevoke, { token: login.session_token });
    expect(again.error?.error_type).toBe('session_not_found');
  });
});

describe('sessions/exchange', () => {
  it('moves to another organization the member belongs to, and refuses others', async () => {
    const beta = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Beta',
      organization_slug: 'beta',
    });
    await h.admin.createMember(h.project.project_id, beta.organization_id, {
      email_address: 'ada@acme.test',
      status: 'invited',
    });
    const login = await h.login();
    const res = await h.call(ENDPOINTS.sessionsExchange, {
      body: { organization_id: beta.organization_id, session_duration_minutes: 60 },
      token: login.session_token,
    });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.organization.organization_id).toBe(beta.organization_id);
    expect(data.member.status).toBe('active');
    expect(data.session_token).not.toBe(login.session_token);

    const gamma = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Gamma',
      organization_slug: 'gamma',
    });
    const refused = await h.call(ENDPOINTS.sessionsExchange, {
      body: { organization_id: gamma.organization_id, session_duration_minutes: 60 },
      token: login.session_token,
    });
    expect([refused.status, refused.error?.error_type]).toEqual([404, 'member_not_found']);
    const anonymous = await h.call(ENDPOINTS.sessionsExchange, {
      body: { organization_id: beta.organization_id, session_duration_minutes: 60 },
    });
    expect(anonymous.status).toBe(401);
  });
});
