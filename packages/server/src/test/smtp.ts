/** A real SMTP receiver (smtp-server) on a loopback port, for the e-mail tests. */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
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

/** Options of {@link startSmtpReceiver}. */
export interface SmtpReceiverOptions {
  /** The port to listen on (one from {@link unusedPort}, say); a free one by default. */
  port?: number;
  /**
   * The SMTP status to refuse a recipient with (a 4xx asks to try later, a 5xx refuses for
   * good), or null to accept it.
   */
  refuseRecipient?: (address: string) => number | null;
  /** The SMTP status to refuse every connection with at the greeting (421, 554). */
  refuseConnections?: number;
  /** Require a login (PLAIN or LOGIN, without TLS) with any user name and this password. */
  password?: string;
}

/**
 * A loopback port nothing listens on now: where an SMTP server that is down would be.
 *
 * @example
 * const port = await unusedPort(); // connections to it are refused until something listens
 */
export async function unusedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Starts a receiver without TLS on 127.0.0.1 and a free port, taking mail without a login unless
 * `password` asks for one.
 *
 * @example
 * const smtp = await startSmtpReceiver();
 * const h = await startHarness({ config: { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } } });
 */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: options.password === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      const status = options.refuseConnections;
      if (status === undefined) return callback();
      callback(Object.assign(new Error('Not taking mail now'), { responseCode: status }));
    },
    onAuth(auth, _session, callback) {
      if (auth.password === options.password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const status = options.refuseRecipient?.(address.address) ?? null;
      if (status === null) return callback();
      callback(Object.assign(new Error(`Refused ${address.address}`), { responseCode: status }));
    },
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
  smtp.listen(options.port ?? 0, '127.0.0.1');
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
