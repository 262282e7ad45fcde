// The refresh loop under fake timers: interval, backoff with jitter, destroy, stale calls, locks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay } from './refresh.js';
import { apiError, basicCredentials, installFakeApi, ok, type Handler } from './test/fake-api.js';
import { IST, PUBLIC_TOKEN, SESSION_TOKEN, fullSession } from '@gatehouse/testing';
import {
  STATE_KEY,
  cleanup,
  cookie,
  installLockManager,
  makeClient,
  setCookie,
  setSessionCookie,
  storedState,
  writeFromOtherTab,
} from './test/harness.js';

const REFRESH = '/b2b/sessions/authenticate';
const LOCK_NAME = `gatehouse_refresh:${PUBLIC_TOKEN}`;

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(cleanup);

/** Installs the API with a refresh handler and returns the times (ms since start) of refreshes. */
function refreshApi(handler: Handler) {
  const start = Date.now();
  const times: number[] = [];
  const api = installFakeApi({
    [REFRESH]: (request) => {
      times.push(Date.now() - start);
      return handler(request);
    },
  });
  return { api, times };
}

describe('backoffDelay', () => {
  it('is 2000 × 2^min(n, 7) ms with ±175 ms of jitter', () => {
    const expected = [4000, 8000, 16000, 32000, 64000, 128000, 256000, 256000, 256000];
    expected.forEach((ms, i) => {
      expect(backoffDelay(i + 1, () => 0.5)).toBe(ms);
      expect(backoffDelay(i + 1, () => 0)).toBe(ms - 175);
      expect(backoffDelay(i + 1, () => 0.999999)).toBe(ms + 175);
    });
  });
});

describe('refresh loop', () => {
  it('refreshes at once on load with a session cookie, then every 180000 ms', async () => {
    const { api, times } = refreshApi(() => ok(fullSession()));
    setSessionCookie();
    const client = makeClient();

    await vi.advanceTimersByTimeAsync(0);
    expect(times).toEqual([0]);
    const [first] = api.calls();
    expect(first?.method).toBe('POST');
    expect(first?.body).toEqual({});
    expect(basicCredentials(first?.headers.Authorization)).toEqual([PUBLIC_TOKEN, SESSION_TOKEN]);
    expect(client.session.getSnapshot()?.session.member_session_id).toBe('member-session-test-1');

    await vi.advanceTimersByTimeAsync(179_999);
    expect(times).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(times).toEqual([0, 180_000]);
    await vi.advanceTimersByTimeAsync(180_000);
    expect(times).toEqual([0, 180_000, 360_000]);
  });

  it('never refreshes without a session', async () => {
    const { times } = refreshApi(() => ok(fullSession()));
    makeClient();
    await vi.advanceTimersByTimeAsync(1_000_000);
    expect(times).toEqual([]);
  });

  it('backs off 4 s, 8 s, … 256 s on recoverable errors, without an attempt limit', async () => {
    const { times } = refreshApi(() => apiError(500, 'internal_server_error'));
    setSessionCookie();
    makeClient();

    await vi.advanceTimersByTimeAsync(0);
    const gaps = [4000, 8000, 16000, 32000, 64000, 128000, 256000, 256000, 256000];
    for (const gap of gaps) await vi.advanceTimersByTimeAsync(gap);
    const expected = gaps.reduce((acc, gap) => [...acc, (acc.at(-1) ?? 0) + gap], [0]);
    expect(times).toEqual(expected);
  });

  it('applies the jitter from Math.random', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { times } = refreshApi(() => apiError(429, 'too_many_requests'));
    setSessionCookie();
    makeClient();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(3824);
    expect(times).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(times).toEqual([0, 3825]);
  });

  it('retries when the server is unreachable, and the interval resumes after a success', async () => {
    let fail = true;
    const { times } = refreshApi(() => {
      if (fail) throw new TypeError('Failed to fetch');
      return ok(fullSession());
    });
    setSessionCookie();
    makeClient();
    await vi.advanceTimersByTimeAsync(0);
    fail = false;
    await vi.advanceTimersByTimeAsync(4000);
    await vi.advanceTimersByTimeAsync(180_000);
    expect(times).toEqual([0, 4000, 184_000]);
  });

  it('destroys the session on an unrecoverable error and stops', async () => {
    const { times } = refreshApi(() => apiError(404, 'session_not_found'));
    setSessionCookie();
    setCookie('gatehouse_session_jwt', 'jwt');
    const { member_session, member, organization } = fullSession();
    localStorage.setItem(
      STATE_KEY,
      JSON.stringify({ session: member_session, member, organization }),
    );
    const client = makeClient();
    const listener = vi.fn();
    client.session.subscribe(listener);

    await vi.advanceTimersByTimeAsync(0);
    expect(client.session.getSnapshot()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(storedState()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
    expect(cookie('gatehouse_session_jwt')).toBeNull();
    await vi.advanceTimersByTimeAsync(1_000_000);
    expect(times).toEqual([0]);
  });

  it('destroys after a run of recoverable errors ends in an unrecoverable one', async () => {
    let n = 0;
    const { times } = refreshApi(() =>
      ++n < 3 ? apiError(500, 'internal_server_error') : apiError(401, 'unauthorized_credentials'),
    );
    setSessionCookie();
    const client = makeClient();
    await vi.advanceTimersByTimeAsync(0 + 4000 + 8000);
    expect(times).toEqual([0, 4000, 12_000]);
    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
  });

  it('repeats a call whose session changed while it was in flight', async () => {
    let release: (() => void) | undefined;
    const tokens: string[] = [];
    const newToken = 'bmV3LXNlc3Npb24tdG9rZW4tbmV3LXNlc3Npb24tdG9rZQ';
    const api = installFakeApi({
      [REFRESH]: (request) => {
        const token = basicCredentials(request.headers.Authorization)[1];
        tokens.push(token);
        if (tokens.length === 1) {
          // The first answer (for the old session) arrives after the new login.
          return new Promise((resolve) => (release = () => resolve(ok(fullSession()))));
        }
        return ok(fullSession({ member_session_id: 'member-session-test-2' }, newToken));
      },
      '/b2b/magic_links/authenticate': () =>
        ok({
          ...fullSession({ member_session_id: 'member-session-test-2' }, newToken),
          method_id: 'm',
        }),
    });
    setSessionCookie();
    const client = makeClient();
    await vi.advanceTimersByTimeAsync(0);
    await client.magicLinks.authenticate({ magic_links_token: 't', session_duration_minutes: 60 });

    release?.();
    await vi.advanceTimersByTimeAsync(0);

    expect(tokens).toEqual([SESSION_TOKEN, newToken]);
    expect(client.session.getSnapshot()?.session.member_session_id).toBe('member-session-test-2');
    expect(api.calls().map((r) => r.path)).toEqual([
      REFRESH,
      '/b2b/magic_links/authenticate',
      REFRESH,
    ]);
  });

  it('destroys without a request when the cookie disappeared before the timer fired', async () => {
    const { times } = refreshApi(() => ok(fullSession()));
    setSessionCookie();
    const client = makeClient();
    await vi.advanceTimersByTimeAsync(0);
    setCookie('gatehouse_intermediate_session_token', IST);
    document.cookie = 'gatehouse_session=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    await vi.advanceTimersByTimeAsync(180_000);
    expect(times).toEqual([0]);
    expect(client.session.getSnapshot()).toBeNull();
    // A pending MFA or discovery step survives: only the session is destroyed.
    expect(cookie('gatehouse_intermediate_session_token')).toBe(IST);
  });
});

describe('one refreshing tab', () => {
  it('skips while another tab holds the Web Lock, and re-arms', async () => {
    const { times } = refreshApi(() => ok(fullSession()));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let acquired = false;
    const locks = installLockManager();
    void locks.request(LOCK_NAME, () => {
      acquired = true;
      return held;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(acquired).toBe(true);

    setSessionCookie();
    makeClient();
    await vi.advanceTimersByTimeAsync(0);
    expect(times).toEqual([]);

    release();
    await vi.advanceTimersByTimeAsync(180_000);
    expect(times).toEqual([180_000]);
  });

  it('without Web Locks, respects a live lease of another tab', async () => {
    expect(navigator.locks ?? undefined).toBeUndefined();
    const { times } = refreshApi(() => ok(fullSession()));
    const leaseKey = `${STATE_KEY}::refresh_lease`;
    localStorage.setItem(
      leaseKey,
      JSON.stringify({ owner: 'other-tab', until: Date.now() + 30_000 }),
    );
    setSessionCookie();
    makeClient();
    await vi.advanceTimersByTimeAsync(0);
    expect(times).toEqual([]);

    // The lease has expired by the next tick: this tab takes over, then releases it.
    await vi.advanceTimersByTimeAsync(180_000);
    expect(times).toEqual([180_000]);
    expect(localStorage.getItem(leaseKey)).toBeNull();
  });

  it('refreshes under the Web Lock when it is free, and two tabs never refresh together', async () => {
    installLockManager();
    let release: () => void = () => undefined;
    const { times } = refreshApi(
      () => new Promise((resolve) => (release = () => resolve(ok(fullSession())))),
    );
    setSessionCookie();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    makeClient();
    makeClient();
    expect(warn).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(0);
    // The second tab found the lock taken while the first one's call was in flight.
    expect(times).toEqual([0]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(times).toEqual([0]);
  });

  it("re-arms when another tab's refreshed state arrives, so this tab does not refresh too", async () => {
    const { times } = refreshApi(() => ok(fullSession()));
    setSessionCookie();
    makeClient();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(100_000);

    const { member_session, member, organization } = fullSession({
      last_accessed_at: '2030-01-01T00:03:00Z',
    });
    writeFromOtherTab({ session: member_session, member, organization });

    await vi.advanceTimersByTimeAsync(80_000);
    expect(times).toEqual([0]);
    await vi.advanceTimersByTimeAsync(100_000);
    expect(times).toEqual([0, 280_000]);
  });

  it("stops when another tab's logout arrives", async () => {
    const { times } = refreshApi(() => ok(fullSession()));
    setSessionCookie();
    makeClient();
    await vi.advanceTimersByTimeAsync(0);
    writeFromOtherTab(null);
    await vi.advanceTimersByTimeAsync(1_000_000);
    expect(times).toEqual([0]);
  });
});
