// The HTTP SMS provider against a real provider stand-in on 127.0.0.1, and the message text.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpSmsProvider, SmsDeliveryError, smsText } from './sms.js';
import { countingSmsProvider, DeliveryStats } from './stats.js';

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Mode = 'ok' | 'error' | 'slow';

let server: Server;
let url: string;
let mode: Mode = 'ok';
const requests: RecordedRequest[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : null,
      });
      if (mode === 'error') {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'carrier unavailable' }));
      } else if (mode === 'slow') {
        setTimeout(() => res.writeHead(200).end('{}'), 2000).unref();
      } else {
        res.writeHead(202, { 'Content-Type': 'application/json' }).end('{"id":"msg_1"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  requests.length = 0;
});

const message = { to: '+14155552671', body: smsText('042917', 'Acme') };

describe('httpSmsProvider', () => {
  it('POSTs the message as JSON with the bearer token', async () => {
    const sms = httpSmsProvider({
      url,
      authToken: 'sk_sms_123',
      from: '+15550100',
      timeoutMs: 2000,
    });
    await sms.send(message);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers.authorization).toBe('Bearer sk_sms_123');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      to: '+14155552671',
      from: '+15550100',
      body: 'Your Acme verification code is 042917. It expires in 2 minutes.',
    });
  });

  it('rejects with the status and the provider error, never the message text', async () => {
    mode = 'error';
    const sms = httpSmsProvider({ url, authToken: 't', from: 'Acme', timeoutMs: 2000 });
    const error = await sms.send(message).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SmsDeliveryError);
    expect((error as SmsDeliveryError).status).toBe(500);
    expect((error as SmsDeliveryError).message).toBe(
      'SMS provider answered 500: {"error":"carrier unavailable"}',
    );
    expect((error as SmsDeliveryError).message).not.toContain('042917');
  });

  it('times out when the provider does not answer', async () => {
    mode = 'slow';
    const sms = httpSmsProvider({ url, authToken: 't', from: 'Acme', timeoutMs: 100 });
    const started = Date.now();
    await expect(sms.send(message)).rejects.toThrow('SMS provider did not answer within 100 ms');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('rejects when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const sms = httpSmsProvider({
      url: `http://127.0.0.1:${port}/`,
      authToken: 't',
      from: 'A',
      timeoutMs: 2000,
    });
    const error = await sms.send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsDeliveryError);
    expect((error as SmsDeliveryError).message).toBe('SMS provider could not be reached');
    expect((error as SmsDeliveryError).status).toBeNull();
  });
});

describe('countingSmsProvider', () => {
  it('counts what the provider accepts and what it refuses, still failing the send', async () => {
    const stats = new DeliveryStats();
    const sms = countingSmsProvider(
      httpSmsProvider({ url, authToken: 't', from: 'Acme', timeoutMs: 2000 }),
      stats,
    );
    await sms.send(message);
    mode = 'error';
    await expect(sms.send(message)).rejects.toBeInstanceOf(SmsDeliveryError);
    await expect(sms.send(message)).rejects.toBeInstanceOf(SmsDeliveryError);
    expect([...stats.read('sms_sent')]).toEqual([['', 1]]);
    expect([...stats.read('sms_failed')]).toEqual([['rejected', 2]]);
  });
});

describe('smsText', () => {
  it('names the app, the code and the lifetime', () => {
    expect(smsText('000123', 'Gatehouse Demo')).toBe(
      'Your Gatehouse Demo verification code is 000123. It expires in 2 minutes.',
    );
  });
});
