/** Client test harness: creation with a known base URL, browser-state helpers and cleanup. */
import { vi } from 'vitest';
import { createClient } from '../client.js';
import type { ClientOptions, GatehouseClient, SessionState } from '../types.js';
import { resetBrowserState } from './fake-api.js';
import { BASE_URL, PUBLIC_TOKEN, SESSION_TOKEN } from '@gatehouse/testing';

export { BASE_URL };
export const STATE_KEY = `gatehouse_sdk_state_${PUBLIC_TOKEN}`;

const created: GatehouseClient[] = [];

/** A client on the fixture token; destroyed by `cleanup`. */
export function makeClient(options: ClientOptions = {}, token = PUBLIC_TOKEN): GatehouseClient {
  const client = createClient(token, { baseUrl: BASE_URL, ...options });
  created.push(client);
  return client;
}

/** Run in `afterEach`: tears down clients, browser state, stubs and fake timers. */
export function cleanup(): void {
  for (const client of created.splice(0)) client.destroy();
  resetBrowserState();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
}

/** The value of a cookie as the page sees it, or null. */
export function cookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function setCookie(name: string, value: string): void {
  document.cookie = `${name}=${value}; path=/`;
}

export function setSessionCookie(token = SESSION_TOKEN): void {
  setCookie('gatehouse_session', token);
}

export function storedState(): unknown {
  const raw = localStorage.getItem(STATE_KEY);
  return raw === null ? undefined : (JSON.parse(raw) as unknown);
}

/** Writes the state key and tells the page, as the browser does when another tab writes it. */
export function writeFromOtherTab(state: SessionState | null, key = STATE_KEY): void {
  const oldValue = localStorage.getItem(key);
  const newValue = JSON.stringify(state);
  localStorage.setItem(key, newValue);
  window.dispatchEvent(
    new StorageEvent('storage', { key, oldValue, newValue, storageArea: localStorage }),
  );
}

/**
 * A minimal in-page Web Locks manager (exclusive mode, `ifAvailable`), installed as
 * `navigator.locks` where the test DOM lacks one. Tabs of one origin share it, as in browsers.
 */
export function installLockManager(): LockManager {
  const queues = new Map<string, (() => void)[]>();
  const held = new Set<string>();
  const release = (name: string) => {
    const next = queues.get(name)?.shift();
    if (next) next();
    else held.delete(name);
  };
  const manager = {
    async request(
      name: string,
      optionsOrCallback: LockOptions | LockGrantedCallback<unknown>,
      maybeCallback?: LockGrantedCallback<unknown>,
    ): Promise<unknown> {
      const options = typeof optionsOrCallback === 'function' ? {} : optionsOrCallback;
      const callback = (
        typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback
      )!;
      if (held.has(name)) {
        if (options.ifAvailable) return callback(null);
        await new Promise<void>((resolve) =>
          queues.set(name, [...(queues.get(name) ?? []), resolve]),
        );
      }
      held.add(name);
      try {
        const lock: Lock = { name, mode: 'exclusive' };
        return await callback(lock);
      } finally {
        release(name);
      }
    },
    async query() {
      return { held: [], pending: [] };
    },
  };
  const withLocks = Object.create(navigator, { locks: { value: manager } }) as Navigator;
  vi.stubGlobal('navigator', withLocks);
  return manager;
}
