/** E-mail delivery: SMTP through nodemailer when configured, otherwise the dev outbox. */
import nodemailer, { type Transporter } from 'nodemailer';
import type { SmtpConfig } from '../config.js';
import type { Db, Logger } from '../context.js';
import { writeOutbox } from './outbox.js';
import type { RenderedEmail } from './templates.js';

/** Sends e-mail. `send` returns once the message is accepted for delivery, not delivered. */
export interface Mailer {
  send(to: string, email: RenderedEmail): Promise<void>;
  /** Waits for messages still in flight, then releases the SMTP connection. */
  close(): Promise<void>;
}

/** What the mailer needs from the server. */
export interface MailerOptions {
  db: Db;
  smtp: SmtpConfig | null;
  from: string;
  /** Also keep a copy in the outbox (the dev inbox) when SMTP is configured. */
  keepCopies: boolean;
  now: () => number;
  log: Logger;
}

/**
 * Creates the mailer. SMTP sends run off the request path so that the response time of the send
 * endpoints does not depend on the mail server (or reveal anything about the recipient).
 *
 * @example
 * const mailer = createMailer({ db, smtp: null, from, keepCopies: true, now: Date.now, log });
 */
export function createMailer(options: MailerOptions): Mailer {
  const { db, smtp, from, now, log } = options;
  const transport: Transporter | null = smtp
    ? nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure ?? false,
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
      })
    : null;
  const inFlight = new Set<Promise<void>>();

  return {
    async send(to, email) {
      if (!transport || options.keepCopies) {
        await writeOutbox(db, { channel: 'email', to, ...email }, now());
      }
      if (!transport) return;
      const delivery = transport
        .sendMail({ from, to, subject: email.subject, text: email.text, html: email.html })
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error, to }, 'e-mail delivery failed'),
        )
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      transport?.close();
    },
  };
}
