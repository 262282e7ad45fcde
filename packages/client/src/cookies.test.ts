// Token cookies: attributes (path, SameSite, Secure, Domain, expiry), removal variants, duplicates.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenCookies, needsSecure } from './cookies.js';
import { cleanup, cookie } from './test/harness.js';

afterEach(cleanup);

/** Records every `document.cookie` write while still performing it. */
function recordWrites(): string[] {
  const writes: string[] = [];
  let descriptor: PropertyDescriptor | undefined;
  for (
    let o: object | null = document;
    o && !descriptor;
    o = Object.getPrototypeOf(o) as object | null
  ) {
    descriptor = Object.getOwnPropertyDescriptor(o, 'cookie');
  }
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    writes.push(value);
    descriptor?.set?.call(document, value);
  });
  return writes;
}

describe('needsSecure', () => {
  it('omits Secure only on loopback hosts', () => {
    expect(needsSecure('localhost')).toBe(false);
    expect(needsSecure('[::1]')).toBe(false);
    expect(needsSecure('127.0.0.1')).toBe(false);
    expect(needsSecure('127.8.9.10')).toBe(false);
    expect(needsSecure('app.acme.test')).toBe(true);
    expect(needsSecure('localhost.acme.test')).toBe(true);
  });
});

describe('token cookies', () => {
  it('writes session cookies expiring with the session, path=/ and SameSite=Lax', () => {
    const writes = recordWrites();
    const expiresAt = new Date('2030-01-01T01:00:00Z');
    createTokenCookies().writeSession('token', 'jwt', expiresAt);
    expect(writes).toEqual([
      `gatehouse_session=token; expires=${expiresAt.toUTCString()}; path=/; SameSite=Lax`,
      `gatehouse_session_jwt=jwt; expires=${expiresAt.toUTCString()}; path=/; SameSite=Lax`,
    ]);
    expect(cookie('gatehouse_session')).toBe('token');
  });

  it('writes the IST for ten minutes, and honours path and subdomain options', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const writes = recordWrites();
    createTokenCookies({
      path: '/app',
      availableToSubdomains: true,
      domain: 'acme.test',
    }).writeIntermediateSessionToken('ist');
    expect(writes).toEqual([
      'gatehouse_intermediate_session_token=ist; expires=Tue, 01 Jan 2030 00:10:00 GMT; path=/app; domain=acme.test; SameSite=Lax',
    ]);
  });

  it('removes a cookie under every path and domain variant', () => {
    const writes = recordWrites();
    createTokenCookies({ path: '/app', domain: 'acme.test' }).removeIntermediateSessionToken();
    const expired = 'gatehouse_intermediate_session_token=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    expect(writes).toEqual([
      `${expired}; path=/app; SameSite=Lax`,
      `${expired}; path=/; SameSite=Lax`,
      `${expired}; path=/app; domain=acme.test; SameSite=Lax`,
      `${expired}; path=/; domain=acme.test; SameSite=Lax`,
      `${expired}; path=/app; domain=localhost; SameSite=Lax`,
      `${expired}; path=/; domain=localhost; SameSite=Lax`,
    ]);
  });

  it('reads the first of duplicate cookies and warns once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const jar = createTokenCookies();
    // What a browser shows when a host-only and a domain cookie share a name (the test DOM
    // merges them, so present the browser's string directly).
    vi.spyOn(document, 'cookie', 'get').mockReturnValue(
      'gatehouse_session=specific; theme=dark; gatehouse_session=general',
    );
    expect(jar.readSessionToken()).toBe('specific');
    expect(jar.readSessionToken()).toBe('specific');
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('found 2 cookies named "gatehouse_session"');
    expect(jar.readSessionJwt()).toBeNull();
  });
});
