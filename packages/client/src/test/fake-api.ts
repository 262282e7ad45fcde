/** A recording `fetch` stand-in: routes by path, keeps every request for exact assertions. */
import { vi } from 'vitest';
import { bootstrapData } from '@gatehouse/testing';

export interface RecordedRequest {
  url: string;
  /** The path after `/sdk/v1`. */
  path: string;
  method: string;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
  /** Parsed JSON body, or undefined when none was sent. */
  body: unknown;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

/** A JSON response as the server sends it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** `{data}` with status 200. */
export function ok(data: unknown): Response {
  return json(200, { data });
}

/** A flat API error body. */
export function apiError(status: number, error_type: string, error_message = error_type): Response {
  return json(status, {
    status_code: status,
    request_id: 'request-id-test-err',
    error_type,
    error_message,
    error_url: `https://auth.acme.test/docs/errors#${error_type}`,
  });
}

/**
 * Installs a fetch mock as the global `fetch`. Bootstrap answers with `bootstrapData()` unless a
 * handler for it is given; any other unhandled path fails the test loudly.
 */
export function installFakeApi(handlers: Record<string, Handler> = {}) {
  const requests: RecordedRequest[] = [];
  const routes = new Map<string, Handler>(Object.entries(handlers));
  const fetchMock = vi.fn(async (input: string | URL, init: RequestInit = {}) => {
    const url = input.toString();
    const path = url.replace(/^.*?\/sdk\/v1/, '');
    const request: RecordedRequest = {
      url,
      path,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      credentials: init.credentials,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const handler =
      routes.get(path) ??
      (path.startsWith('/projects/bootstrap/') ? () => ok(bootstrapData()) : undefined);
    if (!handler) throw new Error(`unexpected request ${request.method} ${path}`);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetch: fetchMock,
    requests,
    /** Requests other than the bootstrap fetch. */
    calls: () => requests.filter((r) => !r.path.startsWith('/projects/bootstrap/')),
    on(path: string, handler: Handler) {
      routes.set(path, handler);
    },
  };
}

/** Expires every cookie of the document and empties localStorage. */
export function resetBrowserState(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  localStorage.clear();
}

/** Decodes an `Authorization: Basic` header into its two halves. */
export function basicCredentials(header: string | undefined): [string, string] {
  const decoded = atob(String(header).replace(/^Basic /, ''));
  const i = decoded.indexOf(':');
  return [decoded.slice(0, i), decoded.slice(i + 1)];
}
