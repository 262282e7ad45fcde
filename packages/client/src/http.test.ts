// The transport against a real HTTP server on 127.0.0.1: headers, envelope and error classes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  GatehouseAPIError,
  GatehouseAPISchemaError,
  GatehouseAPIUnreachableError,
  isUnrecoverableError,
} from './errors.js';
import { createTransport, type Transport } from './http.js';
import { basicCredentials } from './test/fake-api.js';
import { PUBLIC_TOKEN, SESSION_TOKEN } from '@gatehouse/testing';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = (res: ServerResponse) => void;

let server: Server;
let base: string;
let seen: Seen[] = [];
let reply: Reply = () => undefined;

const cors = { 'Access-Control-Allow-Origin': '*' };
const sendJson = (status: number, body: unknown, headers: Record<string, string> = cors): Reply => {
  return (res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          ...cors,
          'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
          'Access-Control-Allow-Headers':
            'Authorization, Content-Type, X-SDK-Client, X-SDK-Parent-Host',
        });
        res.end();
        return;
      }
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let sessionToken: string | null;
let transport: Transport;

beforeEach(() => {
  seen = [];
  sessionToken = null;
  transport = createTransport({
    publicToken: PUBLIC_TOKEN,
    sdkBase: base,
    getSessionToken: () => sessionToken,
    telemetryHeader: () => ({
      event_id: 'event-id-1',
      app_session_id: 'app-session-id-1',
      persistent_id: 'persistent-id-1',
      client_sent_at: '2030-01-01T00:00:00.000Z',
      timezone: 'Europe/Berlin',
      stytch_member_id: 'member-test-1',
      app: { identifier: 'localhost' },
      sdk: { identifier: 'gatehouse-client-js', version: '0.1.0' },
    }),
  });
});

describe('request headers', () => {
  it('sends the public token twice when signed out, with JSON type, parent host and client info', async () => {
    reply = sendJson(200, { data: { request_id: 'r', status_code: 200 } });
    await transport.request('POST', '/b2b/organizations/search', { organization_slug: 'acme' });
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/sdk/v1/b2b/organizations/search');
    expect(basicCredentials(request?.headers.authorization)).toEqual([PUBLIC_TOKEN, PUBLIC_TOKEN]);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-sdk-parent-host']).toBe(window.location.origin);
    const info = JSON.parse(atob(String(request?.headers['x-sdk-client']))) as Record<
      string,
      unknown
    >;
    expect(info).toMatchObject({
      event_id: 'event-id-1',
      app_session_id: 'app-session-id-1',
      persistent_id: 'persistent-id-1',
      stytch_member_id: 'member-test-1',
      sdk: { identifier: 'gatehouse-client-js', version: '0.1.0' },
    });
    expect(JSON.parse(request?.body ?? '')).toEqual({ organization_slug: 'acme' });
  });

  it('uses the session token read at call time as the secret', async () => {
    reply = sendJson(200, { data: {} });
    sessionToken = SESSION_TOKEN;
    await transport.request('GET', '/b2b/recovery_codes');
    expect(basicCredentials(seen[0]?.headers.authorization)).toEqual([PUBLIC_TOKEN, SESSION_TOKEN]);
    // GET carries no body, yet still the JSON content type.
    expect(seen[0]?.body).toBe('');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });
});

describe('response classification', () => {
  it('returns only the envelope data on 2xx JSON', async () => {
    reply = sendJson(200, { data: { request_id: 'request-id-test-1', status_code: 200, x: 1 } });
    await expect(transport.request('POST', '/x', {})).resolves.toEqual({
      request_id: 'request-id-test-1',
      status_code: 200,
      x: 1,
    });
  });

  it('keeps the five fields of an API error', async () => {
    reply = sendJson(404, {
      status_code: 404,
      request_id: 'request-id-test-9',
      error_type: 'organization_not_found',
      error_message: 'No such organization.',
      error_url: 'https://auth.acme.test/docs/errors#organization_not_found',
    });
    const error = (await transport
      .request('POST', '/x', {})
      .catch((e: unknown) => e)) as GatehouseAPIError;
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect({ ...error }).toMatchObject({
      status_code: 404,
      error_type: 'organization_not_found',
      error_message: 'No such organization.',
      error_url: 'https://auth.acme.test/docs/errors#organization_not_found',
      request_id: 'request-id-test-9',
    });
  });

  it('keeps an error type this client does not know, as sent, and finds it recoverable', async () => {
    // A newer server may add types: the client must neither fail nor rename them.
    reply = sendJson(409, {
      status_code: 409,
      request_id: 'request-id-test-9',
      error_type: 'some_future_conflict',
      error_message: 'Later.',
      error_url: '',
    });
    const error = (await transport
      .request('POST', '/x', {})
      .catch((e: unknown) => e)) as GatehouseAPIError;
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect(error.error_type).toBe('some_future_conflict');
    expect(isUnrecoverableError(error)).toBe(false);
  });

  it('reads an object with a body key as a schema error listing each issue', async () => {
    reply = sendJson(400, {
      status_code: 400,
      request_id: 'request-id-test-9',
      error_type: 'invalid_request',
      error_message: 'bad',
      error_url: '',
      body: [
        { dataPath: '.email_address', message: 'must be string' },
        { dataPath: '.organization_id', message: 'is required' },
      ],
    });
    const error = (await transport
      .request('POST', '/x', {})
      .catch((e: unknown) => e)) as GatehouseAPISchemaError;
    expect(error).toBeInstanceOf(GatehouseAPISchemaError);
    expect(error).not.toBeInstanceOf(GatehouseAPIError);
    expect(error.message).toBe(
      'Request does not match expected schema\n.email_address: must be string\n.organization_id: is required',
    );
    expect(error.error_type).toBe('invalid_request');
    expect(error.body).toHaveLength(2);
  });

  it('treats params or query keys as schema errors too', async () => {
    reply = sendJson(400, { params: [], error_type: 'invalid_request' });
    await expect(transport.request('POST', '/x', {})).rejects.toBeInstanceOf(
      GatehouseAPISchemaError,
    );
  });

  it('reports unreachable for a non-JSON error, bad JSON, a 204 and a non-JSON success', async () => {
    const cases: Reply[] = [
      (res) => {
        res.writeHead(502, { ...cors, 'Content-Type': 'text/html' });
        res.end('<h1>Bad gateway</h1>');
      },
      sendJson(500, '{"status_code": 500, '),
      (res) => {
        res.writeHead(204, cors);
        res.end();
      },
      (res) => {
        res.writeHead(200, { ...cors, 'Content-Type': 'text/plain' });
        res.end('ok');
      },
    ];
    for (const r of cases) {
      reply = r;
      await expect(transport.request('POST', '/x', {})).rejects.toBeInstanceOf(
        GatehouseAPIUnreachableError,
      );
    }
  });

  it('reports unreachable when the server is down', async () => {
    const down = createTransport({
      publicToken: PUBLIC_TOKEN,
      sdkBase: 'http://127.0.0.1:9',
      getSessionToken: () => null,
      telemetryHeader: () => ({}) as never,
    });
    await expect(down.request('POST', '/x', {})).rejects.toBeInstanceOf(
      GatehouseAPIUnreachableError,
    );
  });
});
