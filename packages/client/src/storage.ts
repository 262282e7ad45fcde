/** localStorage keys of one client (docs/protocol.md §11), with reads that never throw. */
import { DEFAULT_STORAGE_PREFIX, type PkceNamespace } from '@gatehouse/protocol';

/** The keys one client uses, all derived from the prefix and the public token. */
export interface StorageKeys {
  /** `{session, member, organization}` or `null`. */
  state: string;
  bootstrap: string;
  pkce(namespace: PkceNamespace): string;
  resetEmail: string;
  persistentId: string;
  /** Lease used to elect one refreshing tab where Web Locks are missing. */
  refreshLease: string;
}

export function storageKeys(publicToken: string, prefix = DEFAULT_STORAGE_PREFIX): StorageKeys {
  const state = `${prefix}${publicToken}`;
  return {
    state,
    bootstrap: `${state}::bootstrap`,
    pkce: (namespace) => `${state}::PKCE_VERIFIER:${namespace}`,
    resetEmail: `${state}::reset-email-value`,
    persistentId: `${state}::persistent_id`,
    refreshLease: `${state}::refresh_lease`,
  };
}

/** Parsed JSON at `key`, or `undefined` when absent, unreadable or not JSON. */
export function readJson(key: string): unknown {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (privacy modes, sandboxed frames): behave as if empty.
    return undefined;
  }
  return parseJson(raw);
}

/** JSON.parse that returns `undefined` instead of throwing. */
export function parseJson(raw: string | null): unknown {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Full or disabled storage: cookies still carry the tokens, so the session keeps working.
  }
}

export function removeKey(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // See writeJson.
  }
}
