// The dev inbox: on only when asked for, never with live projects or https, loopback only, no CORS.
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../http/app.js';
import { startHarness, type Harness } from '../../test/harness.js';

/** A GET with a `Host` header of our choosing (fetch does not let a caller set it). */
function getWithHost(
  url: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SMTP_NOWHERE = { host: '127.0.0.1', port: 9 };

describe('dev inbox switched on', () => {
  let h: Harness;
  let port: string;
  beforeAll(async () => {
    h = await startHarness({ listen: true, config: { devInbox: true } });
    port = new URL(h.url).port;
    const sent = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    expect(sent.status).toBe(200);
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers this machine on a loopback host name', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`]) {
      const res = await getWithHost(`${h.url}/_dev/inbox/messages`, host);
      expect(res.status, host).toBe(200);
      expect(res.text).toContain('ada@acme.test');
    }
  });

  it('refuses another host name, as a page that rebinds its DNS name to 127.0.0.1 sends', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      for (const path of ['/_dev/inbox/messages', '/_dev/inbox', '/_dev/inbox/messages/x/html']) {
        const res = await getWithHost(`${h.url}${path}`, host);
        expect(res.status, `${host}${path}`).toBe(404);
        expect(JSON.parse(res.text)).toMatchObject({ error_type: 'endpoint_not_found' });
        expect(res.text).not.toContain('ada@acme.test');
      }
    }
  });

  it('refuses requests that came through a proxy', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const res = await h.request('/_dev/inbox/messages', {
        authorization: null,
        headers: { [header]: header === 'forwarded' ? 'for=198.51.100.7' : '198.51.100.7' },
      });
      expect(res.status, header).toBe(404);
      expect(res.text).not.toContain('ada@acme.test');
    }
  });

  it('refuses clients on other machines', async () => {
    const res = await h.app.inject({
      url: '/_dev/inbox/messages',
      remoteAddress: '203.0.113.5',
      headers: { host: `127.0.0.1:${port}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('ada@acme.test');
    const local = await h.app.inject({
      url: '/_dev/inbox/messages',
      remoteAddress: '127.0.0.1',
      headers: { host: `127.0.0.1:${port}` },
    });
    expect(local.statusCode).toBe(200);
  });

  it('never sends CORS headers, so other sites cannot read it from the browser', async () => {
    for (const path of ['/_dev/inbox/messages', '/_dev/inbox']) {
      const res = await h.request(path, { authorization: null, origin: 'https://evil.example' });
      expect(res.status).toBe(200);
      expect([...res.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
      const preflight = await h.request(path, {
        method: 'OPTIONS',
        authorization: null,
        origin: 'https://evil.example',
        headers: { 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('frames each e-mail’s HTML part, sandboxed, with a switch to its text part', async () => {
    const page = await h.request('/_dev/inbox', { authorization: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta name="viewport" content="width=device-width');
    const frames = [...page.text.matchAll(/<iframe src="([^"]+)" sandbox="([^"]*)"/g)];
    expect(frames.length).toBeGreaterThan(0);
    const [, src = '', sandbox = ''] = frames[0]!;
    expect(sandbox.split(' ').sort()).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    expect(page.text).toMatch(/<input type="radio" name="part-0" class="show-text"> Text/);
    expect(page.text).toContain('<pre class="text">');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-src 'self'");
    expect(csp).not.toContain('script-src');

    const part = await h.request(src, { authorization: null });
    expect(part.status).toBe(200);
    expect(part.headers.get('content-type')).toMatch(/^text\/html/);
    const [message] = await h.admin.listOutbox({ limit: 1 });
    expect(part.text).toBe(
      `<!doctype html><base target="_blank">${message!.html.replace(/^<!doctype html>/i, '')}`,
    );
    const policy = new Map(
      (part.headers.get('content-security-policy') ?? '').split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    // No script runs: none is allowed, and the frame is a sandbox of its own without scripts.
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toBeUndefined();
    expect(policy.get('sandbox')).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    expect(policy.get('style-src')).toEqual(["'unsafe-inline'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(part.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(part.headers.get('referrer-policy')).toBe('no-referrer');

    for (const id of ['message-unknown', encodeURIComponent('../inbox')]) {
      const missing = await h.request(`/_dev/inbox/messages/${id}/html`, { authorization: null });
      expect(missing.status, id).toBe(404);
    }
  });

  it('closes as soon as a project is live', async () => {
    await h.admin.createProject({ name: 'Production', environment: 'live' });
    const res = await h.request('/_dev/inbox/messages', { authorization: null });
    expect(res.status).toBe(404);
    expect(res.error?.error_message).toMatch(/live/);
    expect(res.text).not.toContain('ada@acme.test');
    expect((await h.request('/_dev/inbox', { authorization: null })).status).toBe(404);
    const [message] = await h.admin.listOutbox({ limit: 1 });
    const part = await h.request(`/_dev/inbox/messages/${message!.id}/html`, {
      authorization: null,
    });
    expect(part.status).toBe(404);
  });
});

describe('dev inbox at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-inbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is off unless asked for', async () => {
    const h = await startHarness({ listen: true, config: { smtp: SMTP_NOWHERE } });
    try {
      expect((await h.request('/_dev/inbox/messages', { authorization: null })).status).toBe(404);
      expect((await h.request('/_dev/inbox', { authorization: null })).status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it('refuses to start with a live project', async () => {
    const databaseUrl = `sqlite:${join(dir, 'live.db')}`;
    const production = await createServer({ databaseUrl, smtp: SMTP_NOWHERE });
    await production.gatehouse.createProject({ name: 'Production', environment: 'live' });
    await production.close();
    await expect(createServer({ databaseUrl, devInbox: true })).rejects.toThrow(
      /dev inbox.*live project.*GATEHOUSE_DEV_INBOX/,
    );
    // The same database serves fine without the inbox.
    const again = await createServer({ databaseUrl, smtp: SMTP_NOWHERE });
    await again.close();
  });

  it('refuses to start behind an https public URL', async () => {
    await expect(
      createServer({
        databaseUrl: `sqlite:${join(dir, 'https.db')}`,
        devInbox: true,
        publicUrl: 'https://auth.example.com',
      }),
    ).rejects.toThrow(/dev inbox.*https/);
  });
});
