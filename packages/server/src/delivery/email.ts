/** E-mail delivery: SMTP through nodemailer when configured, otherwise the dev outbox. */
import nodemailer, { type Transporter } from 'nodemailer';
import type { SmtpConfig } from '../config.js';
import type { Db } from '../store/schema.js';
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
  /** Also keep a copy in the outbox when SMTP is configured (the dev inbox is on). */
  keepCopies: boolean;
  now: () => number;
  /** Where a failed send is reported (the server's logger); sends never throw at the caller. */
  log: { error(obj: object, msg?: string): void };
}

/**
 * Refuses to start a server that could not deliver e-mail: without SMTP settings, sign-in links
 * would silently pile up in the outbox. Only a server that asked for the dev inbox may run
 * without SMTP, since the inbox is where it shows them.
 *
 * @example
 * assertMailDeliverable(resolved); // throws naming SMTP_HOST when neither is configured
 */
export function assertMailDeliverable(config: {
  smtp: SmtpConfig | null;
  devInbox: boolean;
}): void {
  if (config.smtp || config.devInbox) return;
  throw new Error(
    'No SMTP server is configured, so sign-in e-mails could not be delivered. Set SMTP_HOST ' +
      '(with SMTP_PORT, SMTP_SECURE, SMTP_USER and SMTP_PASS as needed), or for development on ' +
      'this machine set GATEHOUSE_DEV_INBOX=true to read them in the dev inbox.',
  );
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
