/** The background session refresh: 180 s timer, stale-call repeat, backoff, and one tab at a time. */
import {
  REFRESH_BACKOFF_BASE_MS,
  REFRESH_BACKOFF_JITTER_MS,
  REFRESH_BACKOFF_MAX_EXPONENT,
  SESSION_REFRESH_INTERVAL_MS,
} from '@gatehouse/protocol';
import type { TokenCookies } from './cookies.js';
import { randomUuid } from './encoding.js';
import { isUnrecoverableError } from './errors.js';
import type { ApplicableResult, SessionStore } from './session-store.js';
import { readJson, removeKey, writeJson } from './storage.js';

/** How long a fallback lease may be held before other tabs assume its holder died. */
const LEASE_MS = 30_000;

/**
 * Delay before retry `attempt` (1, 2, …): `2000 × 2^min(attempt, 7)` ms ± 175 ms of jitter, so
 * that tabs and devices that failed together do not retry together.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(attempt, REFRESH_BACKOFF_MAX_EXPONENT);
  const jitter = Math.round((random() * 2 - 1) * REFRESH_BACKOFF_JITTER_MS);
  return REFRESH_BACKOFF_BASE_MS * 2 ** exponent + jitter;
}

export interface RefreshLoopOptions {
  store: SessionStore;
  cookies: TokenCookies;
  /** `POST /b2b/sessions/authenticate` with `{}`; resolves with the F result, not yet applied. */
  authenticate(): Promise<ApplicableResult>;
  /** Web Locks name shared by all tabs of this client. */
  lockName: string;
  /** localStorage key of the fallback lease where Web Locks are missing. */
  leaseKey: string;
}

export interface RefreshLoop {
  /** The on-load rule: destroy without a session cookie, otherwise refresh at once. */
  start(): void;
  stop(): void;
}

export function createRefreshLoop(options: RefreshLoopOptions): RefreshLoop {
  const { store, cookies } = options;
  const tabId = randomUuid();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  const arm = (delay: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void tick(), delay);
  };

  // Any accepted state with a session (ours, a method's, another tab's) restarts the interval.
  const unobserve = store.onApplied((state) => {
    if (state) {
      attempt = 0;
      arm(SESSION_REFRESH_INTERVAL_MS);
    } else {
      clearTimeout(timer);
    }
  });

  const sessionId = () => store.getSnapshot()?.session.member_session_id;

  const refreshOnce = async (): Promise<void> => {
    for (;;) {
      const before = sessionId();
      try {
        const result = await options.authenticate();
        if (stopped) return;
        // The session changed while the call was in flight (a login, another tab): this answer
        // describes the old one, so ask again for the current one.
        if (sessionId() !== before) {
          if (!cookies.readSessionToken()) return;
          continue;
        }
        store.apply(result);
        return;
      } catch (error) {
        if (stopped) return;
        if (sessionId() !== before) {
          if (!cookies.readSessionToken()) return;
          continue;
        }
        if (isUnrecoverableError(error)) {
          store.destroy();
          return;
        }
        attempt += 1;
        arm(backoffDelay(attempt));
        return;
      }
    }
  };

  const tick = async (): Promise<void> => {
    if (stopped) return;
    if (!cookies.readSessionToken()) {
      store.destroy();
      return;
    }
    const ran = await withRefreshLock(options, tabId, refreshOnce);
    // Another tab holds the lock and is refreshing; its result reaches us through storage.
    if (!ran && !stopped) arm(SESSION_REFRESH_INTERVAL_MS);
  };

  return {
    start() {
      if (!cookies.readSessionToken()) store.destroy();
      else void tick();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      unobserve();
    },
  };
}

/** Runs `fn` if this tab wins the refresh lock; resolves with whether it ran. */
async function withRefreshLock(
  options: RefreshLoopOptions,
  tabId: string,
  fn: () => Promise<void>,
): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks && typeof locks.request === 'function') {
    return locks.request(options.lockName, { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await fn();
      return true;
    });
  }
  // Fallback: a best-effort lease in localStorage. Not atomic, but combined with every tab
  // re-arming its timer when another tab's refreshed state arrives, duplicates stay rare.
  const lease = readJson(options.leaseKey) as { owner?: unknown; until?: unknown } | undefined;
  const now = Date.now();
  if (lease && lease.owner !== tabId && typeof lease.until === 'number' && lease.until > now) {
    return false;
  }
  writeJson(options.leaseKey, { owner: tabId, until: now + LEASE_MS });
  try {
    await fn();
  } finally {
    removeKey(options.leaseKey);
  }
  return true;
}
