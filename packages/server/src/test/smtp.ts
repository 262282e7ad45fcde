/** A real SMTP receiver (smtp-server) on a loopback port, for the e-mail tests. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the receiver got it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** The running receiver: its port, what arrived (oldest first), and how to stop it. */
export interface SmtpReceiver {
  port: number;
  received: ReceivedMail[];
  /** Waits up to five seconds for a message to have arrived, then takes the oldest. */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * Starts a receiver without TLS or authentication on 127.0.0.1 and a free port.
 *
 * @example
 * const smtp = await startSmtpReceiver();
 * const h = await startHarness({ config: { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } } });
 */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const { port } = smtp.server.address() as AddressInfo;
  return {
    port,
    received,
    async next() {
      for (let i = 0; i < 100 && received.length === 0; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const mail = received.shift();
      if (!mail) throw new Error('no e-mail arrived');
      return mail;
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
