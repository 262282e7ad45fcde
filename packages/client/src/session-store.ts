/** The session state: the either-or rule, persistence to cookies and storage, and cross-tab sync. */
import type { Member, MemberSession, Organization } from '@gatehouse/protocol';
import type { TokenCookies } from './cookies.js';
import { parseJson, readJson, writeJson } from './storage.js';
import type { SessionState } from './types.js';

/** The fields of an auth result (F, AM or DR) that decide the state (docs/protocol.md §11). */
export interface ApplicableResult {
  member_session?: MemberSession | null;
  member?: Member | null;
  organization?: Organization | null;
  session_token?: string;
  session_jwt?: string;
  intermediate_session_token?: string;
}

export interface SessionStore {
  /** Current state; the same object until the state really changes. */
  getSnapshot(): SessionState | null;
  /** Called after each real change, local or from another tab. */
  subscribe(listener: () => void): () => void;
  /**
   * Called after every state this tab accepts, even an unchanged one or one that differs only in
   * `last_accessed_at`: the refresh loop re-arms its timer on each.
   */
  onApplied(observer: (state: SessionState | null) => void): () => void;
  /** Applies a result by rules (1)–(3). */
  apply(result: ApplicableResult): void;
  /** Ends the local session: state `null`, session cookies removed; the IST only when asked. */
  destroy(options?: { clearIntermediateSession?: boolean }): void;
  /** Stops listening to other tabs. */
  close(): void;
}

/** Builds the store, loading the stored state and listening for other tabs' changes. */
export function createSessionStore(stateKey: string, cookies: TokenCookies): SessionStore {
  let state = toState(readJson(stateKey));
  const listeners = new Set<() => void>();
  const observers = new Set<(state: SessionState | null) => void>();

  const accept = (next: SessionState | null, options: { persist: boolean; notify: boolean }) => {
    const changed = JSON.stringify(next) !== JSON.stringify(state);
    if (changed) state = next;
    if (options.persist) writeJson(stateKey, state);
    if (changed && options.notify) for (const listener of [...listeners]) listener();
    for (const observer of [...observers]) observer(state);
  };

  const destroy: SessionStore['destroy'] = (options = {}) => {
    cookies.removeSession();
    if (options.clearIntermediateSession) cookies.removeIntermediateSessionToken();
    accept(null, { persist: true, notify: true });
  };

  const onStorage = (event: StorageEvent) => {
    if (event.storageArea !== window.localStorage) return;
    // A null key means another tab cleared all of storage, our state included.
    if (event.key !== null && event.key !== stateKey) return;
    const next = event.key === null ? null : toState(parseJson(event.newValue));
    // Each refresh moves `last_accessed_at`; re-rendering every tab for that alone is noise, but
    // the timer still re-arms, so tabs that saw another tab refresh do not refresh again.
    const notify = withoutAccessTime(next) !== withoutAccessTime(state);
    if (notify) accept(next, { persist: false, notify: true });
    else for (const observer of [...observers]) observer(state);
  };
  window.addEventListener('storage', onStorage);

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onApplied(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    apply(result) {
      if (result.member_session) {
        // Rule (1): a full session.
        cookies.writeSession(
          String(result.session_token),
          String(result.session_jwt),
          new Date(result.member_session.expires_at),
        );
        cookies.removeIntermediateSessionToken();
        const next = {
          session: result.member_session,
          member: result.member as Member,
          organization: result.organization as Organization,
        };
        accept(next, { persist: true, notify: true });
      } else if (result.intermediate_session_token) {
        // Rule (2): an intermediate session; every discovery result lands here, so discovery
        // logs out an existing session.
        cookies.removeSession();
        cookies.writeIntermediateSessionToken(result.intermediate_session_token);
        accept(null, { persist: true, notify: true });
      } else {
        // Rule (3): nothing usable.
        destroy({ clearIntermediateSession: true });
      }
    },
    destroy,
    close() {
      window.removeEventListener('storage', onStorage);
      listeners.clear();
      observers.clear();
    },
  };
}

/** A stored value as state, or null when it is not one (tampered, old shape, `null`). */
function toState(value: unknown): SessionState | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const isObject = (x: unknown) => typeof x === 'object' && x !== null;
  if (!isObject(v.session) || !isObject(v.member) || !isObject(v.organization)) return null;
  return value as SessionState;
}

function withoutAccessTime(state: SessionState | null): string {
  if (!state) return 'null';
  return JSON.stringify({ ...state, session: { ...state.session, last_accessed_at: undefined } });
}
