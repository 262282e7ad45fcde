// Breached-password checks against the offline list and a real range server on 127.0.0.1.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  combinedBreachChecker,
  offlineBreachChecker,
  rangeBreachChecker,
  type BreachChecker,
} from './breach.js';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

// Passwords the range server knows as leaked; none is on the offline common list.
const LEAKED = ['Zephyr-Mandolin-1987', 'orbit!walnut!cascade'];
// Present in the range response only as padding (count 0).
const PADDED = 'Glacier#Teapot#Nine';
const STRONG = 'Umbrella-Quokka-Saxophone-73';

interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
}

type Mode = 'ok' | 'error' | 'slow';

let server: Server;
let base: string;
let mode: Mode = 'ok';
const requests: RecordedRequest[] = [];

beforeAll(async () => {
  const known = new Map<string, number>(LEAKED.map((p) => [sha1(p), 42]));
  known.set(sha1(PADDED), 0);
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    if (mode === 'error') {
      res.writeHead(500).end('boom');
      return;
    }
    if (mode === 'slow') {
      setTimeout(() => res.writeHead(200).end(''), 2000).unref();
      return;
    }
    const match = /^\/api\/range\/([0-9A-F]{5})$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const prefix = match[1] ?? '';
    const lines = [...known]
      .filter(([hash]) => hash.startsWith(prefix))
      .map(([hash, count]) => `${hash.slice(5)}:${count}`);
    // Unrelated entries of the same prefix, as a real range answer has.
    lines.push(`${'0'.repeat(35)}:3`, `${'F'.repeat(35)}:0`);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  requests.length = 0;
});

describe('offlineBreachChecker', () => {
  it('flags common passwords case-insensitively and nothing else', async () => {
    const checker = offlineBreachChecker();
    for (const password of ['password', 'Password', 'QWERTY', '123456', 'dragon']) {
      expect(await checker.isBreached(password)).toBe(true);
    }
    expect(await checker.isBreached(STRONG)).toBe(false);
    expect(await checker.isBreached(LEAKED[0] ?? '')).toBe(false);
  });
});

describe('rangeBreachChecker', () => {
  it('finds leaked passwords by their SHA-1 suffix', async () => {
    const checker = rangeBreachChecker(base, { timeoutMs: 2000 });
    for (const password of LEAKED) expect(await checker.isBreached(password)).toBe(true);
    expect(await checker.isBreached(STRONG)).toBe(false);
  });

  it('sends only the five-character prefix, asking for padding', async () => {
    const checker = rangeBreachChecker(base, { timeoutMs: 2000 });
    await checker.isBreached(STRONG);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const hash = sha1(STRONG);
    expect(request?.url).toBe(`/api/range/${hash.slice(0, 5)}`);
    expect(request?.headers['add-padding']).toBe('true');
    const sent = JSON.stringify(request);
    expect(sent).not.toContain(hash.slice(5, 12));
    expect(sent.toUpperCase()).not.toContain(hash.slice(5, 12));
    expect(sent).not.toContain(STRONG);
  });

  it('ignores padding entries with a count of zero', async () => {
    const checker = rangeBreachChecker(base, { timeoutMs: 2000 });
    expect(await checker.isBreached(PADDED)).toBe(false);
  });

  it('falls back to the offline list when the API fails', async () => {
    mode = 'error';
    const checker = rangeBreachChecker(base, { timeoutMs: 2000 });
    expect(await checker.isBreached('password')).toBe(true);
    expect(await checker.isBreached(LEAKED[0] ?? '')).toBe(false);
    expect(requests).toHaveLength(2);
  });

  it('falls back to the offline list when the API is too slow', async () => {
    mode = 'slow';
    const checker = rangeBreachChecker(base, { timeoutMs: 100 });
    const started = Date.now();
    expect(await checker.isBreached('letmein')).toBe(true);
    expect(await checker.isBreached(LEAKED[1] ?? '')).toBe(false);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('falls back to the offline list when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const checker = rangeBreachChecker(`http://127.0.0.1:${port}`, { timeoutMs: 2000 });
    expect(await checker.isBreached('iloveyou')).toBe(true);
    expect(await checker.isBreached(STRONG)).toBe(false);
  });

  it('uses the fetch it is given', async () => {
    const urls: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      urls.push(input instanceof Request ? input.url : input.toString());
      return new Response(`${sha1(STRONG).slice(5)}:7\n`);
    };
    const checker = rangeBreachChecker('https://range.example', {
      timeoutMs: 2000,
      fetch: fakeFetch,
    });
    expect(await checker.isBreached(STRONG)).toBe(true);
    expect(urls).toEqual([`https://range.example/range/${sha1(STRONG).slice(0, 5)}`]);
  });
});

describe('combinedBreachChecker', () => {
  it('reports a breach when any checker does, asking in order and stopping early', async () => {
    const asked: string[] = [];
    const fixed = (name: string, answer: boolean): BreachChecker => ({
      async isBreached() {
        asked.push(name);
        return answer;
      },
    });
    expect(await combinedBreachChecker(fixed('a', false), fixed('b', false)).isBreached('x')).toBe(
      false,
    );
    expect(asked).toEqual(['a', 'b']);
    asked.length = 0;
    expect(await combinedBreachChecker(fixed('a', true), fixed('b', false)).isBreached('x')).toBe(
      true,
    );
    expect(asked).toEqual(['a']);

    const real = combinedBreachChecker(
      offlineBreachChecker(),
      rangeBreachChecker(base, { timeoutMs: 2000 }),
    );
    expect(await real.isBreached('password')).toBe(true);
    expect(await real.isBreached(LEAKED[0] ?? '')).toBe(true);
    expect(await real.isBreached(STRONG)).toBe(false);
    expect(await combinedBreachChecker().isBreached('password')).toBe(false);
  });
});
