/** The client's three token cookies: names, attributes, reading and thorough removal (docs/protocol.md §11). */
import {
  DEFAULT_IST_COOKIE,
  DEFAULT_SESSION_COOKIE,
  DEFAULT_SESSION_JWT_COOKIE,
  INTERMEDIATE_SESSION_MINUTES,
} from '@gatehouse/protocol';
import type { ClientOptions } from './types.js';

/** Reads and writes the session token, session JWT and intermediate session token cookies. */
export interface TokenCookies {
  readSessionToken(): string | null;
  readSessionJwt(): string | null;
  readIntermediateSessionToken(): string | null;
  /** Writes token and JWT, both expiring with the session. */
  writeSession(sessionToken: string, sessionJwt: string, expiresAt: Date): void;
  /** Writes the IST for the protocol's 10 minutes. */
  writeIntermediateSessionToken(token: string): void;
  removeSession(): void;
  removeIntermediateSessionToken(): void;
}

/** Builds the cookie jar for one client from its options and the current page. */
export function createTokenCookies(options: ClientOptions['cookieOptions'] = {}): TokenCookies {
  const names = {
    session: options.opaqueTokenCookieName ?? DEFAULT_SESSION_COOKIE,
    jwt: options.jwtCookieName ?? DEFAULT_SESSION_JWT_COOKIE,
    ist: options.istCookieName ?? DEFAULT_IST_COOKIE,
  };
  const path = options.path ?? '/';
  const hostname = window.location.hostname;
  const domain = options.availableToSubdomains ? (options.domain ?? hostname) : undefined;
  const warned = new Set<string>();

  const read = (name: string): string | null => {
    const values = readAll(name);
    if (values.length > 1 && !warned.has(name)) {
      // Usually a leftover cookie from another path or domain; the browser lists the most
      // specific one first, which is the one this client wrote last.
      warned.add(name);
      console.warn(`Gatehouse: found ${values.length} cookies named "${name}"; using the first.`);
    }
    return values[0] ?? null;
  };

  const write = (name: string, value: string, expires: Date) => {
    document.cookie = serialize(name, value, {
      expires,
      path,
      domain,
      secure: needsSecure(hostname),
    });
  };

  const remove = (name: string) => {
    // A cookie is only deleted by a write with the same domain and path, and earlier versions or
    // other settings may have used different ones, so try every plausible combination.
    for (const d of domainVariants(hostname, options.domain)) {
      for (const p of new Set([path, '/'])) {
        document.cookie = serialize(name, '', {
          expires: new Date(0),
          path: p,
          domain: d,
          secure: false,
        });
      }
    }
  };

  return {
    readSessionToken: () => read(names.session),
    readSessionJwt: () => read(names.jwt),
    readIntermediateSessionToken: () => read(names.ist),
    writeSession(sessionToken, sessionJwt, expiresAt) {
      write(names.session, sessionToken, expiresAt);
      write(names.jwt, sessionJwt, expiresAt);
    },
    writeIntermediateSessionToken(token) {
      write(names.ist, token, new Date(Date.now() + INTERMEDIATE_SESSION_MINUTES * 60_000));
    },
    removeSession() {
      remove(names.session);
      remove(names.jwt);
    },
    removeIntermediateSessionToken: () => remove(names.ist),
  };
}

/** `Secure` everywhere except on loopback hosts, where development runs over plain HTTP. */
export function needsSecure(hostname: string): boolean {
  return !(hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.'));
}

interface CookieAttributes {
  expires: Date;
  path: string;
  domain: string | undefined;
  secure: boolean;
}

function serialize(name: string, value: string, a: CookieAttributes): string {
  return [
    `${name}=${value}`,
    `expires=${a.expires.toUTCString()}`,
    `path=${a.path}`,
    ...(a.domain ? [`domain=${a.domain}`] : []),
    'SameSite=Lax',
    ...(a.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Every value of `name` in `document.cookie`, in the browser's order. */
function readAll(name: string): string[] {
  const values: string[] = [];
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** Host-only, the host itself, and each parent domain with at least two labels. */
function domainVariants(hostname: string, configured: string | undefined): (string | undefined)[] {
  const variants = new Set<string | undefined>([undefined]);
  if (configured) variants.add(configured);
  // IP literals have no parent domains.
  if (/^[\d.]+$/.test(hostname) || hostname.startsWith('[')) return [...variants];
  const labels = hostname.split('.');
  for (let i = 0; i <= labels.length - 2; i++) variants.add(labels.slice(i).join('.'));
  if (labels.length === 1) variants.add(hostname);
  return [...variants];
}
