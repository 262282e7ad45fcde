// The absolute session lifetime: refreshes cannot keep a session, stolen or not, alive past its start plus 30 days.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const YEAR_MINUTES = 527_040;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const refresh = (token: string, body: RequestOf<typeof ENDPOINTS.sessionsAuthenticate> = {}) =>
  h.call(ENDPOINTS.sessionsAuthenticate, { body, token });

/** Signs Ada in by magic link asking for a session of `minutes`. */
async function loginFor(minutes: number) {
  await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
    body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
  });
  const res = await h.call(ENDPOINTS.magicLinksAuthenticate, {
    body: {
      magic_links_token: await h.lastToken('ada@acme.test'),
      session_duration_minutes: minutes,
    },
  });
  expect(res.status).toBe(200);
  return expectSession(res);
}

describe('absolute session lifetime', () => {
  it('caps a new session at 30 days however long it asks for', async () => {
    const login = await loginFor(YEAR_MINUTES);
    const session = login.member_session;
    expect(Date.parse(session.expires_at) - Date.parse(session.started_at)).toBe(30 * DAY);
    expect(decodeJwt(login.session_jwt).exp).toBeLessThanOrEqual(
      Date.parse(session.expires_at) / 1000,
    );
  });

  it('never lets a refresh with session_duration_minutes push expiry past it', async () => {
    const login = await loginFor(60);
    const startedAt = Date.parse(login.member_session.started_at);
    const cap = new Date(startedAt + 30 * DAY).toISOString();

    // A refresh asking for a year, early on and again two minutes before the cap.
    h.clock.advance(30 * MINUTE);
    const early = await refresh(login.session_token, { session_duration_minutes: YEAR_MINUTES });
    expect(early.status).toBe(200);
    expect(expectOk(early).member_session.expires_at).toBe(cap);
    h.clock.advance(30 * DAY - 32 * MINUTE);
    const late = await refresh(login.session_token, { session_duration_minutes: YEAR_MINUTES });
    expect(expectOk(late).member_session.expires_at).toBe(cap);
    expect(expectOk(late).member_session.started_at).toBe(login.member_session.started_at);
    const short = await refresh(login.session_token, { session_duration_minutes: 5 });
    expect(expectOk(short).member_session.expires_at).toBe(cap);
    expect(decodeJwt(expectOk(short).session_jwt).exp).toBeLessThanOrEqual(Date.parse(cap) / 1000);

    h.clock.advance(2 * MINUTE);
    const dead = await refresh(login.session_token, { session_duration_minutes: YEAR_MINUTES });
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it('keeps the lifetime of a session exchanged into other organizations and back', async () => {
    const beta = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Beta',
      organization_slug: 'beta',
    });
    await h.admin.createMember(h.project.project_id, beta.organization_id, {
      email_address: 'ada@acme.test',
    });
    const login = await loginFor(YEAR_MINUTES);
    const cap = new Date(Date.parse(login.member_session.started_at) + 30 * DAY).toISOString();
    h.clock.advance(29 * DAY);
    const res = await h.call(ENDPOINTS.sessionsExchange, {
      body: { organization_id: beta.organization_id, session_duration_minutes: YEAR_MINUTES },
      token: login.session_token,
    });
    expect(res.status).toBe(200);
    const exchanged = expectSession(res);
    const session = exchanged.member_session;
    expect(session.member_session_id).not.toBe(login.member_session.member_session_id);
    expect(session.started_at).toBe(login.member_session.started_at);
    expect(session.expires_at).toBe(cap);

    // And back again, through a discovery exchange with the new session: still the same cap.
    const back = await h.call(ENDPOINTS.discoveryExchange, {
      body: { organization_id: h.org.organization_id, session_duration_minutes: YEAR_MINUTES },
      token: exchanged.session_token,
    });
    expect(back.status).toBe(200);
    const returned = expectSession(back);
    expect(returned.member_session.expires_at).toBe(cap);
    h.clock.advance(DAY);
    const dead = await refresh(returned.session_token);
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it('starts afresh when a new primary factor is proven', async () => {
    const first = await loginFor(YEAR_MINUTES);
    h.clock.advance(29 * DAY);
    const again = await loginFor(YEAR_MINUTES);
    expect(again.member_session.member_session_id).not.toBe(first.member_session.member_session_id);
    expect(Date.parse(again.member_session.started_at)).toBe(h.clock.now);
    expect(Date.parse(again.member_session.expires_at)).toBe(h.clock.now + 30 * DAY);
  });
});

describe('a configured absolute lifetime', () => {
  it('caps refreshes at the configured minutes', async () => {
    const short = await startHarness({ config: { sessionMaxLifetimeMinutes: 90 } });
    try {
      const login = await short.login();
      const startedAt = Date.parse(login.member_session.started_at);
      expect(Date.parse(login.member_session.expires_at)).toBe(startedAt + 60 * MINUTE);
      short.clock.advance(50 * MINUTE);
      const res = await short.call(ENDPOINTS.sessionsAuthenticate, {
        body: { session_duration_minutes: 60 },
        token: login.session_token,
      });
      expect(Date.parse(expectOk(res).member_session.expires_at)).toBe(startedAt + 90 * MINUTE);
      short.clock.advance(41 * MINUTE);
      const dead = await short.call(ENDPOINTS.sessionsAuthenticate, {
        body: {},
        token: login.session_token,
      });
      expect(dead.error?.error_type).toBe('session_not_found');
    } finally {
      await short.close();
    }
  });
});
