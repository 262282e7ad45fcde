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

/**
 * Remembers a freshly signed JWT. Entries past the reuse window leave first, so the cache holds
 * only the sessions refreshed in the last 30 s (at most `MAX_ENTRIES`): kept until the cache was
 * full, the stale ones grew the heap by about 3 KB per session ever refreshed, up to some 30 MB
 * (bench/RESULTS.md, "Soak").
 */
export function rememberJwt(
  owner: object,
  sessionId: string,
  fingerprint: string,
  jwt: string,
  now: number,
): void {
  const cache = cacheOf(owner);
  cache.delete(sessionId);
  // A Map keeps insertion order, which is signing order: the oldest entries are at the front.
  for (const [id, entry] of cache) {
    if (now - entry.signedAt < JWT_REUSE_MS && cache.size < MAX_ENTRIES) break;
    cache.delete(id);
  }
  cache.set(sessionId, { fingerprint, jwt, signedAt: now });
}

/**
 * How many JWTs are remembered for this owner (what the cache holds in memory).
 *
 * @example
 * rememberedJwtCount(ctx); // 0 once every JWT is older than 30 s and another is remembered
 */
export function rememberedJwtCount(owner: object): number {
  return cacheOf(owner).size;
}
