// E-mail delivery: a real SMTP receiver gets the magic-link e-mail through nodemailer; without SMTP
// the dev outbox and the dev inbox pages show it.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../http/app.js';
import { startHarness, type Harness } from '../test/harness.js';
import { startSmtpReceiver, type SmtpReceiver } from '../test/smtp.js';
import type { OutboxMessage } from './outbox.js';

describe('SMTP delivery', () => {
  let smtp: SmtpReceiver;
  let h: Harness;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    h = await startHarness({
      config: {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false },
        emailFrom: 'Acme <login@acme.example>',
      },
    });
  });

  afterAll(async () => {
    await h.close();
    await smtp.close();
  });

  it('sends the magic-link e-mail as HTML and text over SMTP', async () => {
    const res = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    expect(res.status).toBe(200);
    const mail = await smtp.next();
    expect(smtp.received).toHaveLength(0);
    expect(mail.from).toBe('login@acme.example');
    expect(mail.to).toEqual(['ada@acme.test']);
    expect(mail.raw).toContain('Subject: Your login link for Acme');
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    const unfolded = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toMatch(
      /http:\/\/localhost:3000\/authenticate\?stytch_token_type=multi_tenant_magic_links&(amp;)?token=[A-Za-z0-9_-]{43}/,
    );
  });

  it('keeps no dev inbox when SMTP is configured', async () => {
    expect((await h.request('/_dev/inbox/messages')).status).toBe(404);
    expect(await h.admin.listOutbox()).toEqual([]);
  });
});

describe('dev outbox and inbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('lists sent messages newest first as JSON and as a page with clickable links', async () => {
    for (const email of ['first@acme.test', 'second@acme.test']) {
      await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: email, organization_id: h.org.organization_id },
      });
    }
    const json = await h.request('/_dev/inbox/messages');
    expect(json.status).toBe(200);
    // The dev inbox is outside the endpoint table: it lists the outbox's messages.
    const messages = json.body as OutboxMessage[];
    expect(messages.map((m) => m.to)).toEqual(['second@acme.test', 'first@acme.test']);
    const [latest] = messages;
    if (!latest) throw new Error('no message');
    expect(Object.keys(latest).sort()).toEqual([
      'channel',
      'created_at',
      'html',
      'id',
      'links',
      'subject',
      'text',
      'to',
    ]);
    expect(latest.channel).toBe('email');
    expect(latest.links[0]).toContain('stytch_token_type=multi_tenant_magic_links');
    const page = await h.request('/_dev/inbox');
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain(`<a href="${latest.links[0]?.replaceAll('&', '&amp;')}">`);
  });
});

describe('without SMTP', () => {
  it('refuses to start a server, naming the settings, unless the dev inbox is asked for', async () => {
    // Production mail must fail loudly at start, not pile up unseen in the outbox.
    await expect(createServer({ databaseUrl: 'sqlite::memory:' })).rejects.toThrow(
      /No SMTP server is configured.*SMTP_HOST.*GATEHOUSE_DEV_INBOX=true/,
    );
    const app = await createServer({ databaseUrl: 'sqlite::memory:', devInbox: true });
    await app.close();
  });
});
