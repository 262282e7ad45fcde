// The configured body limit and request timeout reach the HTTP server.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startHarness, type Harness } from '../test/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    listen: true,
    config: { bodyLimitBytes: 2048, requestTimeoutMs: 1000 },
  });
});

afterAll(async () => {
  await h?.close();
});

/** A search body padded with spaces to `bytes` (JSON ignores them). */
function paddedSearch(bytes: number): string {
  const body = JSON.stringify({ organization_slug: 'acme' });
  return body + ' '.repeat(bytes - body.length);
}

describe('request limits', () => {
  it('answers a body over bodyLimitBytes with the JSON error body, and takes one under it', async () => {
    const path = ENDPOINTS.organizationsSearch.path;
    const small = await h.request(path, { method: 'POST', rawBody: paddedSearch(2000) });
    expect(small.status).toBe(200);
    const large = await h.request(path, { method: 'POST', rawBody: paddedSearch(4000) });
    expect(large.status).toBe(400);
    expect(large.error?.error_type).toBe('invalid_request');
    expect(large.error?.body?.[0]?.message).toMatch(/body is too large/i);
  });

  /** Sends `head` on a fresh connection, then nothing; resolves with all the server answers. */
  async function trickle(head: string): Promise<{ answer: string; ms: number }> {
    const { port } = new URL(h.url);
    const socket = connect(Number(port), '127.0.0.1');
    const started = Date.now();
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        socket.write(head);
      });
      return { answer, ms: Date.now() - started };
    } finally {
      socket.destroy();
    }
  }

  it('cuts off a client that trickles its headers past requestTimeoutMs', async () => {
    expect(h.app.server.requestTimeout).toBe(1000);
    // The first header lines, and then nothing more, as a slow-headers attack sends them.
    const { answer, ms } = await trickle(
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(5000);
  });

  it('cuts off a client that trickles its body past requestTimeoutMs', async () => {
    const { answer, ms } = await trickle(
      `POST ${ENDPOINTS.organizationsSearch.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"organization_',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(5000);
  });
});
