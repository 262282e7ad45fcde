// How failed SMTP attempts are classified, from the errors nodemailer really raises against a real
// receiver: what is retried, what fails at once, and summaries without addresses or secrets.
import nodemailer from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpReceiver, unusedPort, type SmtpReceiver } from '../test/smtp.js';
import { classifySmtpError } from './smtp-errors.js';

const receivers: SmtpReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** The error of one send to `to` through `port`, as the mailer's transport would raise it. */
async function failure(port: number, to = 'ada@acme.test', auth?: { user: string; pass: string }) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ...(auth ? { auth } : {}),
  });
  try {
    await transport.sendMail({ from: 'login@acme.example', to, text: 'a link' });
    throw new Error('the send succeeded');
  } catch (error) {
    return classifySmtpError(error);
  } finally {
    transport.close();
  }
}

async function receiver(options: Parameters<typeof startSmtpReceiver>[0]) {
  const started = await startSmtpReceiver(options);
  receivers.push(started);
  return started.port;
}

describe('classifySmtpError', () => {
  it('retries a server that refuses connections, without naming its address', async () => {
    const port = await unusedPort();
    expect(await failure(port)).toEqual({
      reason: 'connection',
      transient: true,
      answered: false,
      summary: 'connection refused',
    });
  });

  it('fails a 5xx answer to the recipient at once, and retries a 4xx one', async () => {
    const port = await receiver({
      refuseRecipient: (to) => (to.startsWith('gone') ? 550 : 451),
    });
    expect(await failure(port, 'gone@acme.test')).toEqual({
      reason: 'permanent',
      transient: false,
      answered: true,
      summary: 'rejected with 550 at RCPT TO',
    });
    expect(await failure(port, 'busy@acme.test')).toEqual({
      reason: 'temporary',
      transient: true,
      answered: true,
      summary: 'rejected with 451 at RCPT TO',
    });
  });

  it('counts a refusal at the greeting as a server that does not take mail now', async () => {
    const port = await receiver({ refuseConnections: 421 });
    expect(await failure(port)).toMatchObject({
      reason: 'temporary',
      transient: true,
      answered: false,
    });
  });

  it('retries a refused login, which is the configuration and not the message, and keeps the password out', async () => {
    const port = await receiver({ password: 'right-password' });
    const result = await failure(port, undefined, { user: 'gatehouse', pass: 'wrong-password' });
    expect(result).toEqual({
      reason: 'auth',
      transient: true,
      answered: true,
      summary: 'authentication failed (535)',
    });
    expect(JSON.stringify(result)).not.toContain('wrong-password');
  });
});
