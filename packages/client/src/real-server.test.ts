// The real client in a browser DOM against a real server: sign-in flows end to end (§11 state).
// The page is http://localhost:3000 and the server listens on 127.0.0.1 on another port, so every
// call is a real cross-origin request: the CORS preflight and the server's origin check
// (docs/protocol.md §2: a test project accepts localhost on any port) both take part. The cookies
// and storage asserted are those of docs/protocol.md §11. The server runs in this process: Fastify
// and SQLite work unchanged beside happy-dom's globals.
// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/"}
import type { FullSessionResult } from '@gatehouse/protocol';
import {
  bootstrapData,
  discovered,
  discoveryResult,
  fullSession,
  mfaPending,
  resetStarted,
} from '@gatehouse/testing';
import { mfaOrganization, startHarness, totpAt, type Harness } from '@gatehouse/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from './client.js';
import { GatehouseAPIError } from './errors.js';
import { resetBrowserState } from './test/fake-api.js';
import { cookie } from './test/harness.js';
import type { GatehouseClient, SessionState } from './types.js';

const SESSION_COOKIE = 'gatehouse_session';
const JWT_COOKIE = 'gatehouse_session_jwt';
const IST_COOKIE = 'gatehouse_intermediate_session_token';
const PASSWORD = 'Quartz-Lantern-Orbit-42';

// As in the server's suites: password hashing and a shared machine can outlast the 5-second default.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const clients: GatehouseClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  resetBrowserState();
});

/** A client of the seeded project as a page would build it, pointed at the harness. */
function pageClient(): GatehouseClient {
  const client = createClient(h.project.public_token, { baseUrl: h.url });
  clients.push(client);
  return client;
}

/** What the client keeps in localStorage under its state key. */
function storedState(): unknown {
  const raw = localStorage.getItem(`gatehouse_sdk_state_${h.project.public_token}`);
  return raw === null ? undefined : (JSON.parse(raw) as unknown);
}

/** Signs in to Acme by e-mail link: the send, the e-mail, the redeem. */
async function signInByLink(client: GatehouseClient, email = 'ada@acme.test', orgId?: string) {
  await client.magicLinks.email.loginOrSignup({
    email_address: email,
    organization_id: orgId ?? h.org.organization_id,
  });
  return client.magicLinks.authenticate({
    magic_links_token: await h.lastToken(email),
    session_duration_minutes: 60,
  });
}

/** Rule 1 of docs/protocol.md §11: state, both session cookies and storage, no IST cookie. */
function expectSignedIn(result: FullSessionResult, state: SessionState | null) {
  const expected: SessionState = {
    session: result.member_session,
    member: result.member,
    organization: result.organization,
  };
  expect(state).toEqual(expected);
  expect(storedState()).toEqual(expected);
  expect(cookie(SESSION_COOKIE)).toBe(result.session_token);
  expect(cookie(JWT_COOKIE)).toBe(result.session_jwt);
  expect(cookie(IST_COOKIE)).toBeNull();
}

/** Rule 2 and 3 leave no session: no state, no session cookies. */
function expectSignedOut(state: SessionState | null) {
  expect(state).toBeNull();
  expect(cookie(SESSION_COOKIE)).toBeNull();
  expect(cookie(JWT_COOKIE)).toBeNull();
}

/** `result` narrowed to F, failing the test when it is variant B. */
function asFull(result: { member_session: unknown }): FullSessionResult {
  expect(result.member_session).not.toBeNull();
  return result as FullSessionResult;
}

describe('bootstrap', () => {
  it('fetches the project bootstrap across origins and caches it', async () => {
    const client = pageClient();
    const config = await client.bootstrap();
    expect(config.raw).not.toBeNull();
    expect(config.createOrganizationEnabled).toBe(true);
    expect(localStorage.getItem(`gatehouse_sdk_state_${h.project.public_token}::bootstrap`)).toBe(
      JSON.stringify(config.raw),
    );
  });
});

describe('magic link sign-in', () => {
  it('redeems the e-mailed link into a session: state, cookies and storage', async () => {
    const client = pageClient();
    const result = asFull(await signInByLink(client));
    expect(result.member_authenticated).toBe(true);
    expect(result.member.member_id).toBe(h.member.member_id);
    expect(result.organization.organization_id).toBe(h.org.organization_id);
    expectSignedIn(result, client.session.getSnapshot());
    expect(client.session.getTokens()).toEqual({
      session_token: result.session_token,
      session_jwt: result.session_jwt,
    });
  });

  it('refuses a link used once already with the server error type', async () => {
    const client = pageClient();
    await signInByLink(client);
    const used = await h.lastToken('ada@acme.test');
    const error = await client.magicLinks
      .authenticate({ magic_links_token: used, session_duration_minutes: 60 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect(error).toMatchObject({ status_code: 404, error_type: 'magic_link_not_found' });
  });
});

describe('session refresh', () => {
  it('session.authenticate keeps the token, moves last_accessed_at and resets the expiry', async () => {
    const client = pageClient();
    const first = asFull(await signInByLink(client));
    h.clock.advance(60_000);
    const refreshed = await client.session.authenticate({ session_duration_minutes: 120 });
    expect(refreshed.session_token).toBe(first.session_token);
    expect(refreshed.member_session.member_session_id).toBe(first.member_session.member_session_id);
    expect(Date.parse(refreshed.member_session.last_accessed_at)).toBe(h.clock.now);
    expect(Date.parse(refreshed.member_session.expires_at)).toBe(h.clock.now + 120 * 60_000);
    expectSignedIn(refreshed, client.session.getSnapshot());
  });

  it('a new page with the session cookie refreshes at once and restores the session', async () => {
    const first = pageClient();
    const signedIn = asFull(await signInByLink(first));
    first.destroy();
    localStorage.clear();

    const reloaded = pageClient();
    expect(reloaded.session.getSnapshot()).toBeNull();
    await new Promise<void>((resolve) => {
      const stop = reloaded.session.subscribe(() => {
        if (reloaded.session.getSnapshot()) {
          stop();
          resolve();
        }
      });
    });
    expect(reloaded.session.getSnapshot()?.session.member_session_id).toBe(
      signedIn.member_session.member_session_id,
    );
    expect(cookie(SESSION_COOKIE)).toBe(signedIn.session_token);
  });
});

describe('discovery', () => {
  it('signs out, keeps the discovery IST in its cookie, then exchanges it for a session', async () => {
    const client = pageClient();
    await signInByLink(client);

    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    const result = await client.magicLinks.discovery.authenticate({
      discovery_magic_links_token: await h.lastToken('ada@acme.test'),
    });
    expect(result.email_address).toBe('ada@acme.test');
    expect(
      result.discovered_organizations.map((d) => [
        d.organization.organization_id,
        d.membership.type,
      ]),
    ).toEqual([[h.org.organization_id, 'active_member']]);
    // Rule 2: a discovery result signs out an existing session and keeps only the IST.
    expectSignedOut(client.session.getSnapshot());
    expect(cookie(IST_COOKIE)).toBe(result.intermediate_session_token);
    expect(client.session.getIntermediateSessionToken()).toBe(result.intermediate_session_token);

    const listed = await client.discovery.organizations.list();
    expect(listed.discovered_organizations).toEqual(result.discovered_organizations);

    const entered = asFull(
      await client.discovery.intermediateSessions.exchange({
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
      }),
    );
    expectSignedIn(entered, client.session.getSnapshot());
  });
});

describe('password sign-in', () => {
  beforeAll(async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'lin@acme.test',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
  });

  it('signs a member with a password in', async () => {
    const client = pageClient();
    const result = asFull(
      await client.passwords.authenticate({
        organization_id: h.org.organization_id,
        email_address: 'lin@acme.test',
        password: PASSWORD,
        session_duration_minutes: 60,
      }),
    );
    expect(result.member_session.authentication_factors.map((f) => f.type)).toEqual(['password']);
    expectSignedIn(result, client.session.getSnapshot());
  });

  it('rejects a wrong password with the server error, and stays signed out', async () => {
    const client = pageClient();
    const error = await client.passwords
      .authenticate({
        organization_id: h.org.organization_id,
        email_address: 'lin@acme.test',
        password: `${PASSWORD}!`,
        session_duration_minutes: 60,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect(error).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
      error_message: 'Invalid email or password.',
      request_id: expect.stringMatching(/^request-id-test-/) as unknown,
    });
    expectSignedOut(client.session.getSnapshot());
  });
});

describe('MFA by TOTP (variant B)', () => {
  it('stops at the IST, enrolls an authenticator app with it, and passes the second factor', async () => {
    const { org, member, email } = await mfaOrganization(h, 'totp-corp');
    const client = pageClient();

    const pending = await signInByLink(client, email, org.organization_id);
    expect(pending).toMatchObject({
      member_session: null,
      session_token: '',
      member_authenticated: false,
      mfa_required: { member_options: null, secondary_auth_initiated: null },
    });
    // Rule 2: the IST goes to its cookie, from where the MFA calls below send it.
    expectSignedOut(client.session.getSnapshot());
    expect(cookie(IST_COOKIE)).toBe(pending.intermediate_session_token);

    const ids = { organization_id: org.organization_id, member_id: member.member_id };
    const registration = await client.totp.create(ids);
    expect(registration.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(registration.recovery_codes).toHaveLength(10);

    const result = await client.totp.authenticate({
      ...ids,
      code: totpAt(registration.secret, h.clock.now),
      set_mfa_enrollment: 'enroll',
    });
    expect(
      result.member_session.authentication_factors.map((f) => [f.type, f.sequence_order]),
    ).toEqual([
      ['magic_link', 'PRIMARY'],
      ['totp', 'SECONDARY'],
    ]);
    expect(result.member.mfa_enrolled).toBe(true);
    expectSignedIn(result, client.session.getSnapshot());
  });
});

describe('session.revoke', () => {
  it('ends the session on the server and clears state, cookies and storage', async () => {
    const client = pageClient();
    const { session_token } = asFull(await signInByLink(client));
    await client.session.revoke();
    expectSignedOut(client.session.getSnapshot());
    expect(cookie(IST_COOKIE)).toBeNull();
    expect(storedState()).toBeNull();

    const res = await h.sdk('/b2b/sessions/authenticate', { body: {}, token: session_token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_type: 'session_not_found' });
  });
});

/** The keys of an object, recursively; arrays and scalars are leaves. */
function keyShape(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, v]) => [key, keyShape(v)]),
  );
}

describe('the shared fixtures', () => {
  it('have the keys of the answers the server sends', async () => {
    const client = pageClient();
    expect(keyShape((await client.bootstrap()).raw)).toEqual(keyShape(bootstrapData()));
    await signInByLink(client);
    expect(keyShape(await client.session.authenticate())).toEqual(keyShape(fullSession()));

    await client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    const discovery = await client.magicLinks.discovery.authenticate({
      discovery_magic_links_token: await h.lastToken('ada@acme.test'),
    });
    expect(keyShape(discovery)).toEqual(keyShape(discoveryResult([discovered('active_member')])));

    const { org, member, email } = await mfaOrganization(h, 'fixture-corp');
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const pending = await client.passwords.authenticate({
      organization_id: org.organization_id,
      email_address: email,
      password: PASSWORD,
      session_duration_minutes: 60,
    });
    expect(keyShape(pending)).toEqual(keyShape(mfaPending()));

    const started = await client.passwords.resetByEmailStart({
      organization_id: h.org.organization_id,
      email_address: 'ada@acme.test',
    });
    expect(keyShape(started)).toEqual(keyShape(resetStarted()));
  });
});
