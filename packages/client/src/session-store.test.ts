// The either-or state rule, persistence, snapshot identity and cross-tab sync, through the client.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, ok } from './test/fake-api.js';
import {
  IST,
  SESSION_JWT,
  SESSION_TOKEN,
  discoveryResult,
  fullSession,
  mfaPending,
} from '@gatehouse/testing';
import {
  STATE_KEY,
  cleanup,
  cookie,
  makeClient,
  setCookie,
  setSessionCookie,
  storedState,
  writeFromOtherTab,
} from './test/harness.js';

afterEach(cleanup);

const authenticatePath = '/b2b/magic_links/authenticate';
const args = { magic_links_token: 'token', session_duration_minutes: 60 };

describe('applying results', () => {
  it('rule (1): a member session becomes the state, writes both session cookies and drops the IST', async () => {
    const result = fullSession();
    installFakeApi({ [authenticatePath]: () => ok({ ...result, method_id: 'm' }) });
    setCookie('gatehouse_intermediate_session_token', IST);
    const client = makeClient();

    await client.magicLinks.authenticate(args);

    const expected = {
      session: result.member_session,
      member: result.member,
      organization: result.organization,
    };
    expect(client.session.getSnapshot()).toEqual(expected);
    expect(storedState()).toEqual(expected);
    expect(cookie('gatehouse_session')).toBe(SESSION_TOKEN);
    expect(cookie('gatehouse_session_jwt')).toBe(SESSION_JWT);
    expect(cookie('gatehouse_intermediate_session_token')).toBeNull();
    expect(client.session.getTokens()).toEqual({
      session_token: SESSION_TOKEN,
      session_jwt: SESSION_JWT,
    });
  });

  it('rule (2): an intermediate token clears the state and session cookies and keeps the IST', async () => {
    const api = installFakeApi({
      [authenticatePath]: () => ok({ ...fullSession(), method_id: 'm' }),
      '/b2b/magic_links/discovery/authenticate': () => ok(discoveryResult()),
    });
    const client = makeClient();
    await client.magicLinks.authenticate(args);
    expect(client.session.getSnapshot()).not.toBeNull();

    await client.magicLinks.discovery.authenticate({ discovery_magic_links_token: 'd' });

    expect(client.session.getSnapshot()).toBeNull();
    expect(storedState()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
    expect(cookie('gatehouse_session_jwt')).toBeNull();
    expect(cookie('gatehouse_intermediate_session_token')).toBe(IST);
    expect(client.session.getIntermediateSessionToken()).toBe(IST);
    expect(api.calls().map((r) => r.path)).toEqual([
      authenticatePath,
      '/b2b/magic_links/discovery/authenticate',
    ]);
  });

  it('rule (2) also covers MFA-pending results', async () => {
    installFakeApi({ [authenticatePath]: () => ok({ ...mfaPending(), method_id: 'm' }) });
    const client = makeClient();
    await client.magicLinks.authenticate(args);
    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_intermediate_session_token')).toBe(IST);
  });

  it('rule (3): neither a session nor an IST removes all three cookies', async () => {
    installFakeApi({
      '/b2b/sessions/authenticate': () => ok(fullSession()),
      '/b2b/sessions/exchange': () =>
        ok({
          member_session: null,
          intermediate_session_token: '',
          session_token: '',
          session_jwt: '',
        }),
    });
    setSessionCookie();
    setCookie('gatehouse_intermediate_session_token', IST);
    const client = makeClient();
    await client.session.authenticate();

    await client.session.exchange({
      organization_id: 'organization-test-2',
      session_duration_minutes: 60,
    });

    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
    expect(cookie('gatehouse_session_jwt')).toBeNull();
    expect(cookie('gatehouse_intermediate_session_token')).toBeNull();
  });

  it('uses configured cookie names and storage prefix', async () => {
    installFakeApi({ [authenticatePath]: () => ok({ ...fullSession(), method_id: 'm' }) });
    const client = makeClient({
      cookieOptions: {
        opaqueTokenCookieName: 'stytch_session',
        jwtCookieName: 'stytch_session_jwt',
      },
      storagePrefix: 'stytch_sdk_state_',
    });
    await client.magicLinks.authenticate(args);
    expect(cookie('stytch_session')).toBe(SESSION_TOKEN);
    expect(cookie('stytch_session_jwt')).toBe(SESSION_JWT);
    expect(cookie('gatehouse_session')).toBeNull();
    expect(localStorage.getItem(`stytch_sdk_state_${client.publicToken}`)).toContain(
      'member-session-test-1',
    );
  });
});

describe('snapshot identity', () => {
  it('keeps the same object until the state changes, and notifies only on change', async () => {
    let result = fullSession();
    installFakeApi({ [authenticatePath]: () => ok({ ...result, method_id: 'm' }) });
    const client = makeClient();
    const listener = vi.fn();
    client.session.subscribe(listener);

    await client.magicLinks.authenticate(args);
    const first = client.session.getSnapshot();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(client.session.getSnapshot()).toBe(first);

    await client.magicLinks.authenticate(args);
    expect(client.session.getSnapshot()).toBe(first);
    expect(listener).toHaveBeenCalledTimes(1);

    result = fullSession({ last_accessed_at: '2030-01-01T00:03:00Z' });
    await client.magicLinks.authenticate(args);
    expect(client.session.getSnapshot()).not.toBe(first);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('stops notifying after unsubscribe', async () => {
    installFakeApi({ [authenticatePath]: () => ok({ ...fullSession(), method_id: 'm' }) });
    const client = makeClient();
    const listener = vi.fn();
    const unsubscribe = client.session.subscribe(listener);
    unsubscribe();
    await client.magicLinks.authenticate(args);
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('start-up', () => {
  it('destroys a stored session whose cookie is gone, without a request', () => {
    const api = installFakeApi();
    const { member_session, member, organization } = fullSession();
    localStorage.setItem(
      STATE_KEY,
      JSON.stringify({ session: member_session, member, organization }),
    );

    const client = makeClient();

    expect(client.session.getSnapshot()).toBeNull();
    expect(storedState()).toBeNull();
    expect(api.calls()).toEqual([]);
  });

  it('restores the stored session when its cookie is present', () => {
    installFakeApi({ '/b2b/sessions/authenticate': () => new Promise<never>(() => undefined) });
    const { member_session, member, organization } = fullSession();
    localStorage.setItem(
      STATE_KEY,
      JSON.stringify({ session: member_session, member, organization }),
    );
    setSessionCookie();
    const client = makeClient();
    expect(client.session.getSnapshot()?.session.member_session_id).toBe('member-session-test-1');
  });
});

describe('cross-tab sync', () => {
  it("applies another tab's state from the storage event and notifies", () => {
    installFakeApi();
    const client = makeClient();
    const listener = vi.fn();
    client.session.subscribe(listener);
    const { member_session, member, organization } = fullSession();
    const state = { session: member_session, member, organization };

    writeFromOtherTab(state);
    expect(client.session.getSnapshot()).toEqual(state);
    expect(listener).toHaveBeenCalledTimes(1);

    writeFromOtherTab(null);
    expect(client.session.getSnapshot()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('ignores a change of last_accessed_at alone, and other keys', () => {
    installFakeApi();
    const client = makeClient();
    const { member_session, member, organization } = fullSession();
    writeFromOtherTab({ session: member_session, member, organization });
    const snapshot = client.session.getSnapshot();
    const listener = vi.fn();
    client.session.subscribe(listener);

    writeFromOtherTab({
      session: { ...member_session, last_accessed_at: '2030-01-01T00:03:00Z' },
      member,
      organization,
    });
    writeFromOtherTab(null, `${STATE_KEY}::bootstrap`);

    expect(client.session.getSnapshot()).toBe(snapshot);
    expect(listener).not.toHaveBeenCalled();
  });

  it('syncs two clients sharing one storage: a login in one reaches the other', async () => {
    installFakeApi({ [authenticatePath]: () => ok({ ...fullSession(), method_id: 'm' }) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const tabA = makeClient();
    const tabB = makeClient();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('another client already exists'));

    await tabA.magicLinks.authenticate(args);
    expect(tabB.session.getSnapshot()).toBeNull();
    // Browsers fire `storage` only in the other tabs; replay what tab B would receive.
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: STATE_KEY,
        newValue: localStorage.getItem(STATE_KEY),
        storageArea: localStorage,
      }),
    );
    expect(tabB.session.getSnapshot()).toEqual(tabA.session.getSnapshot());
  });

  it('treats a cleared storage as a logout', () => {
    installFakeApi();
    const client = makeClient();
    const { member_session, member, organization } = fullSession();
    writeFromOtherTab({ session: member_session, member, organization });
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: localStorage }));
    expect(client.session.getSnapshot()).toBeNull();
  });
});
