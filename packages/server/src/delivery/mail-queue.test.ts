// The mail queue against a real SMTP receiver: an SMTP server that is down at start is reported
// (log, /readyz, /metrics) without refusing sends; what was accepted is delivered by a retry once
// the server is up, a permanent refusal fails at once, a temporary one is retried on the schedule
// until given up, bodies are sealed at rest, and two instances over one database working the
// queue at the same time deliver each message once.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerKey, SecretBox } from '../crypto/secret-box.js';
import { isoAt } from '../store/schema.js';
import { startHarness, type Harness } from '../test/harness.js';
import { startSmtpReceiver, unusedPort, type SmtpReceiver } from '../test/smtp.js';

const smtpAt = (port: number) => ({ host: '127.0.0.1', port, secure: false });

async function sendLink(h: Harness, email: string, baseUrl?: string): Promise<void> {
  const res = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
    body: { email_address: email, organization_id: h.org.organization_id },
    ...(baseUrl ? { baseUrl } : {}),
  });
  expect(res.status).toBe(200);
}

/** One sample of /metrics (0 when absent), labels written as Prometheus writes them. */
async function metric(h: Harness, sample: string): Promise<number> {
  const res = await h.request('/metrics', { authorization: null, origin: null });
  const line = res.text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : 0;
}

async function mailTo(h: Harness, to: string) {
  const found = (await h.admin.listMail({ limit: 1000 })).find((m) => m.to === to);
  if (!found) throw new Error(`nothing queued for ${to}`);
  return found;
}

describe('SMTP down at start, then up', () => {
  const lines: string[] = [];
  let port: number;
  let h: Harness;
  let smtp: SmtpReceiver | null = null;

  beforeAll(async () => {
    port = await unusedPort();
    h = await startHarness({
      config: { smtp: smtpAt(port), logger: { write: (line: string) => lines.push(line) } },
    });
  });

  afterAll(async () => {
    await h.close();
    await smtp?.close();
  });

  it('warns at start naming SMTP_HOST and SMTP_PORT, and shows it in /readyz, still ready', async () => {
    const warning = lines.find((l) => l.includes('does not accept connections'));
    expect(warning).toContain(`SMTP_HOST=127.0.0.1 SMTP_PORT=${port}`);
    expect(warning).toContain('connection refused');
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40, SMTP_PORT: port });
    const ready = await h.request('/readyz', { authorization: null, origin: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      smtp: { state: 'failing', error: 'connection refused', checked_at: isoAt(h.clock.now) },
    });
    expect(await metric(h, 'gatehouse_smtp_up')).toBe(0);
  });

  it('answers a send with 200 and keeps the message pending, sealed, with the failure counted', async () => {
    await sendLink(h, 'ada@acme.test');
    // Waits for the immediate attempt; the retry is not due yet.
    await h.admin.deliverMail();
    expect(await mailTo(h, 'ada@acme.test')).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'connection refused',
      next_attempt_at: isoAt(h.clock.now + 30_000),
      subject: 'Your login link for Acme',
    });
    const row = await h.db
      .selectFrom('mail_queue')
      .selectAll()
      .where('recipient', '=', 'ada@acme.test')
      .executeTakeFirstOrThrow();
    // Sealed with the server key: the link (and its token) is there only for whoever holds it.
    const body = new SecretBox(parseServerKey(h.serverKey)).open(row.body_sealed ?? '');
    const token = /token=([A-Za-z0-9_-]{43})/.exec(body)?.[1];
    expect(token).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain('authenticate');
    expect(await metric(h, 'gatehouse_email_send_errors_total{reason="connection"}')).toBe(1);
    expect(await metric(h, 'gatehouse_email_queue_pending')).toBe(1);
    expect(await metric(h, 'gatehouse_email_sent_total')).toBe(0);
  });

  it('delivers it by a retry once SMTP is up, then forgets the body', async () => {
    smtp = await startSmtpReceiver({ port });
    await h.admin.deliverMail();
    expect(smtp.received).toHaveLength(0);
    expect((await mailTo(h, 'ada@acme.test')).status).toBe('pending');

    h.clock.advance(30_000);
    await h.admin.deliverMail();
    const mail = await smtp.next();
    expect(mail.to).toEqual(['ada@acme.test']);
    expect(mail.raw).toContain('stytch_token_type=3Dmulti_tenant_magic_links');
    expect(await mailTo(h, 'ada@acme.test')).toMatchObject({
      status: 'sent',
      attempts: 2,
      last_error: null,
      next_attempt_at: null,
      finished_at: isoAt(h.clock.now),
    });
    const row = await h.db
      .selectFrom('mail_queue')
      .select('body_sealed')
      .where('recipient', '=', 'ada@acme.test')
      .executeTakeFirstOrThrow();
    expect(row.body_sealed).toBeNull();
    expect(await metric(h, 'gatehouse_email_sent_total')).toBe(1);
    expect(await metric(h, 'gatehouse_email_retried_total')).toBe(1);
    expect(await metric(h, 'gatehouse_email_queue_pending')).toBe(0);
    expect(await metric(h, 'gatehouse_smtp_up')).toBe(1);
    const ready = await h.request('/readyz', { authorization: null, origin: null });
    expect(ready.body).toMatchObject({ status: 'ready', smtp: { state: 'ok' } });
  });
});

describe('refusals', () => {
  let smtp: SmtpReceiver;
  let h: Harness;

  beforeAll(async () => {
    smtp = await startSmtpReceiver({
      refuseRecipient: (to) => (to.startsWith('gone') ? 550 : to.startsWith('busy') ? 451 : null),
    });
    h = await startHarness({ config: { smtp: smtpAt(smtp.port) } });
  });

  afterAll(async () => {
    await h.close();
    await smtp.close();
  });

  it('fails a message refused with 5xx at once, counts it, and never tries it again', async () => {
    await sendLink(h, 'gone@acme.test');
    await h.admin.deliverMail();
    const failed = await mailTo(h, 'gone@acme.test');
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'rejected with 550 at RCPT TO',
      finished_at: isoAt(h.clock.now),
    });
    expect(await h.admin.listMail({ status: 'failed' })).toEqual([failed]);
    expect(await metric(h, 'gatehouse_email_failed_total{reason="permanent"}')).toBe(1);
    expect(await metric(h, 'gatehouse_email_send_errors_total{reason="permanent"}')).toBe(1);

    h.clock.advance(2 * 60 * 60_000);
    await h.admin.deliverMail();
    expect((await mailTo(h, 'gone@acme.test')).attempts).toBe(1);
    expect(smtp.received).toHaveLength(0);
  });

  it('retries a 4xx refusal on the schedule, and gives it up after an hour', async () => {
    await sendLink(h, 'busy@acme.test');
    const accepted = h.clock.now;
    await h.admin.deliverMail();
    const waits: number[] = [];
    for (;;) {
      const mail = await mailTo(h, 'busy@acme.test');
      if (mail.status !== 'pending' || !mail.next_attempt_at) break;
      const wait = Date.parse(mail.next_attempt_at) - h.clock.now;
      waits.push(wait / 1000);
      h.clock.advance(wait);
      await h.admin.deliverMail();
    }
    // 30 s doubling to 15 minutes; the attempt after the eighth would come past the hour.
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
    expect(await mailTo(h, 'busy@acme.test')).toMatchObject({
      status: 'failed',
      attempts: 8,
      last_error: 'not delivered in time: rejected with 451 at RCPT TO',
    });
    expect(h.clock.now - accepted).toBe(2730_000);
    expect(await metric(h, 'gatehouse_email_failed_total{reason="expired"}')).toBe(1);
    expect(await metric(h, 'gatehouse_email_send_errors_total{reason="temporary"}')).toBe(8);
    expect(await metric(h, 'gatehouse_email_retried_total')).toBe(7);
    expect(smtp.received).toHaveLength(0);
  });
});

describe('two instances over one database', () => {
  let port: number;
  let h: Harness;
  let smtp: SmtpReceiver | null = null;

  beforeAll(async () => {
    port = await unusedPort();
    h = await startHarness({ config: { smtp: smtpAt(port) } });
  });

  afterAll(async () => {
    await h.close();
    await smtp?.close();
  });

  it('deliver each queued message once when both work the queue at the same time', async () => {
    const sibling = await h.sibling();
    const recipients = Array.from({ length: 12 }, (_, i) => `member${i}@acme.test`);
    for (const [i, to] of recipients.entries()) {
      await sendLink(h, to, i % 2 ? sibling.url : undefined);
    }
    await Promise.all([h.admin.deliverMail(), sibling.app.gatehouse.deliverMail()]);
    expect(await h.admin.listMail({ status: 'pending' })).toHaveLength(recipients.length);

    smtp = await startSmtpReceiver({ port });
    h.clock.advance(30_000);
    await Promise.all([h.admin.deliverMail(), sibling.app.gatehouse.deliverMail()]);
    expect(smtp.received.flatMap((m) => m.to).sort()).toEqual([...recipients].sort());
    const queued = await h.admin.listMail();
    expect(queued.map((m) => [m.status, m.attempts])).toEqual(recipients.map(() => ['sent', 2]));
  });
});
