// The source reader of `gatehouse import`: which URLs it accepts, which answers it retries, what
// counts as a call the source does not offer, and that its errors never carry the secret.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from './command.js';
import { openSource, SourceError, sourceUrl } from './import-source.js';

const SECRET = 'secret-test-never-in-an-error';

/** What the stand-in answers next, per path; each call takes the first answer left. */
const script = new Map<string, ((res: ServerResponse) => void)[]>();
const calls: string[] = [];
let server: Server;
let url = '';

const answer =
  (status: number, body: object, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(body));

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    calls.push(path);
    req.resume();
    const next = script.get(path)?.shift();
    if (next) next(res);
    // No answer at all: the client's timeout ends the call.
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

const source = (timeoutMs = 5000) =>
  openSource({
    url,
    projectId: 'project-test-1',
    secret: SECRET,
    timeoutMs,
    attempts: 3,
    maxDelayMs: 0,
  });

async function failure(work: Promise<unknown>): Promise<SourceError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  expect((error as SourceError).message).not.toContain(SECRET);
  return error as SourceError;
}

describe('sourceUrl', () => {
  it('takes https anywhere and http on loopback only, without credentials', () => {
    expect(sourceUrl('https://api.stytch.com/', '--from')).toBe('https://api.stytch.com');
    expect(sourceUrl('http://127.0.0.5:8080', '--from')).toBe('http://127.0.0.5:8080');
    expect(sourceUrl('http://localhost:3000/', '--from')).toBe('http://localhost:3000');
    for (const bad of [
      'http://api.example.com',
      'ftp://127.0.0.1',
      'https://u:p@api.example.com',
      'not a url',
    ]) {
      expect(() => sourceUrl(bad, '--from')).toThrow(UsageError);
    }
  });
});

describe('openSource', () => {
  it('retries 429 and 5xx, then answers', async () => {
    script.set('/v1/b2b/rbac/policy', [
      answer(429, {}, { 'retry-after': '0' }),
      answer(503, {}),
      answer(200, { policy: { roles: [], resources: [], scopes: [] } }),
    ]);
    calls.length = 0;
    expect(await source().rbacPolicy()).toEqual({ roles: [], resources: [] });
    expect(calls).toEqual(Array(3).fill('/v1/b2b/rbac/policy'));
  });

  it('gives up after its attempts, and never retries a refusal', async () => {
    script.set(
      '/v1/b2b/rbac/policy',
      [1, 2, 3].map(() => answer(500, {})),
    );
    const spent = await failure(source().rbacPolicy());
    expect(spent.message).toBe('GET /v1/b2b/rbac/policy: the source answered 500 after 3 attempts');

    calls.length = 0;
    const refusal = { error_type: 'unauthorized_credentials', error_message: 'Wrong secret.' };
    script.set('/v1/b2b/rbac/policy', [answer(401, refusal)]);
    const refused = await failure(source().rbacPolicy());
    expect(refused.message).toBe(
      'GET /v1/b2b/rbac/policy: the source answered 401 (unauthorized_credentials: Wrong secret.)',
    );
    expect(calls).toHaveLength(1);
  });

  it('tells a call the source does not offer from an object it does not have', async () => {
    const id = 'organization-test-1';
    script.set(`/v1/b2b/sso/${id}`, [
      answer(404, { error_type: 'endpoint_not_found', error_message: 'No such endpoint.' }),
      answer(404, { error_type: 'organization_not_found', error_message: 'No such organization.' }),
    ]);
    expect((await failure(source().ssoConnections(id))).notOffered).toBe(true);
    expect((await failure(source().ssoConnections(id))).notOffered).toBe(false);
  });

  it('ends a call that takes too long, and says so', async () => {
    script.delete('/v1/b2b/organizations/search');
    const slow = await failure(source(50).organizations(null, 10));
    expect(slow.message).toBe('POST /v1/b2b/organizations/search timed out after 3 attempts');
    expect(slow.status).toBe(0);
  });
});
