/**
 * Reuse of recently signed session JWTs. RS256 signing costs far more than the rest of a session
 * refresh put together, and browsers refresh every few minutes while host backends may verify on
 * every request, so a JWT signed in the last 30 seconds for an unchanged session is handed out
 * again instead of signing a new one. Per process and bounded; nothing here must survive a restart.
 */

/** How long a signed JWT is reused: it still has at least 4.5 of its 5 minutes left. */
export const JWT_REUSE_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  /** Everything the JWT's claims depend on except the access time. */
  fingerprint: string;
  jwt: string;
  signedAt: number;
}

// One cache per server context, so servers in one process (tests, the CLI) never share tokens.
const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(owner: object): Map<string, Entry> {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new Map();
    caches.set(owner, cache);
  }
  return cache;
}

/** A JWT signed for `sessionId` with the same `fingerprint` less than 30 s ago, or null. */
export function reusableJwt(
  owner: object,
  sessionId: string,
  fingerprint: string,
  now: number,
): string | null {
  const entry = cacheOf(owner).get(sessionId);
  if (!entry || entry.fingerprint !== fingerprint) return null;
  const age = now - entry.signedAt;
  return age >= 0 && age < JWT_REUSE_MS ? entry.jwt : null;
}

/** Remembers a freshly signed JWT; the oldest entry makes room when the cache is full. */
export function rememberJwt(
  owner: object,
  sessionId: string,
  fingerprint: string,
  jwt: string,
  now: number,
): void {
  const cache = cacheOf(owner);
  cache.delete(sessionId);
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(sessionId, { fingerprint, jwt, signedAt: now });
}
