/**
 * E-mail delivery: messages are queued in the database (mail-queue.ts) and sent over SMTP by a
 * worker in the background, with retries; without SMTP, they go to the dev outbox.
 */
import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { SmtpConfig } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { isoAt, type Db } from '../store/schema.js';
import {
  claimDueMail,
  enqueueMail,
  MAX_ATTEMPTS,
  MAX_MESSAGE_AGE_MS,
  recordAttempt,
  retryDelay,
  type AttemptOutcome,
  type ClaimedMail,
} from './mail-queue.js';
import { writeOutbox } from './outbox.js';
import { classifySmtpError } from './smtp-errors.js';
import type { DeliveryStats } from './stats.js';
import type { RenderedEmail } from './templates.js';

/**
 * Whether the SMTP server answered the last check or send: `ok`, `failing` (with a summary of
 * why), `checking` (no answer yet), or `dev_inbox` (no SMTP: messages go to the dev inbox).
 */
export type SmtpHealth =
  | { state: 'dev_inbox' }
  | { state: 'checking' }
  | { state: 'ok'; checked_at: string }
  | { state: 'failing'; error: string; checked_at: string };

/** What one pass of the worker did. */
export interface DeliveryPass {
  sent: number;
  /** Attempts that failed and are tried again later. */
  retrying: number;
  /** Messages given up. */
  failed: number;
}

/** Sends e-mail. `send` returns once the message is queued for delivery, not delivered. */
export interface Mailer {
  send(to: string, email: RenderedEmail): Promise<void>;
  /**
   * Starts the worker: checks the SMTP connection (waiting at most a few seconds for it), then
   * delivers queued messages every few seconds. Servers start it; the CLI never does.
   */
  start(): Promise<void>;
  /**
   * One pass of the worker now, after any pass in flight: the messages due are attempted (up to
   * a hundred; the next pass takes the rest), those other workers hold excepted.
   */
  deliverDue(): Promise<DeliveryPass>;
  /** The SMTP connection's state, for `/readyz`. */
  health(): SmtpHealth;
  /** Stops the worker, waits for the attempts in flight, then releases the SMTP connection. */
  close(): Promise<void>;
}

/** What the mailer needs from the server. */
export interface MailerOptions {
  db: Db;
  /** Seals message bodies at rest: they carry one-time links. */
  box: SecretBox;
  smtp: SmtpConfig | null;
  from: string;
  /** Also keep a copy in the outbox when SMTP is configured (the dev inbox is on). */
  keepCopies: boolean;
  now: () => number;
  stats: DeliveryStats;
  /** Where failures are reported (the server's logger); sends never throw at the caller. */
  log: {
    info(obj: object, msg?: string): void;
    warn(obj: object, msg?: string): void;
    error(obj: object, msg?: string): void;
  };
}

/** How often the worker looks for due messages. */
const POLL_INTERVAL_MS = 5_000;
/** How long a server's start waits for the SMTP check before going on without its answer. */
const START_CHECK_WAIT_MS = 3_000;
/** How often the connection is checked again while failing, and while fine. */
const RECHECK_FAILING_MS = 60_000;
const RECHECK_OK_MS = 10 * 60_000;
/** Messages claimed per query, and claims per pass before yielding to the next tick. */
const BATCH_SIZE = 10;
const MAX_BATCHES_PER_PASS = 10;

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
 * Creates the mailer. A send only queues the message (sealed) and wakes the worker, so the
 * response time of the send endpoints does not depend on the mail server (or reveal anything
 * about the recipient); the first attempt follows at once, retries on the schedule of
 * mail-queue.ts.
 *
 * @example
 * const mailer = createMailer({ db, box, smtp, from, keepCopies: false, now: Date.now, stats, log });
 * await mailer.start();
 */
export function createMailer(options: MailerOptions): Mailer {
  const { db, box, smtp, from, now, stats, log } = options;
  // Loaded only when there is an SMTP server to send to: a server with the dev inbox does not
  // hold it (bench/RESULTS.md, "Idle memory"). nodemailer is CommonJS, so this stays synchronous.
  const transport: Transporter | null = smtp
    ? (createRequire(import.meta.url)('nodemailer') as typeof nodemailer).createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure ?? false,
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
        // nodemailer's defaults (two minutes to connect, ten of silence) would outlast a claim.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : null;
  const where = smtp ? { SMTP_HOST: smtp.host, SMTP_PORT: smtp.port } : {};
  let health: SmtpHealth = transport ? { state: 'checking' } : { state: 'dev_inbox' };
  let checkedAt = 0;
  let checking: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  // Passes run one at a time; a wake-up while one is queued adds nothing.
  let chain: Promise<unknown> = Promise.resolve();
  let wakeQueued = false;

  function observe(ok: boolean, error = ''): void {
    const previous = health.state;
    checkedAt = now();
    health = ok
      ? { state: 'ok', checked_at: isoAt(checkedAt) }
      : { state: 'failing', error, checked_at: isoAt(checkedAt) };
    if (ok && previous === 'failing') log.info(where, 'SMTP server reachable again');
  }

  function check(): Promise<void> {
    if (!transport) return Promise.resolve();
    checking ??= transport
      .verify()
      .then(
        () => {
          if (health.state !== 'ok') log.info(where, 'SMTP server verified');
          observe(true);
        },
        (error: unknown) => {
          const failure = classifySmtpError(error);
          if (health.state !== 'failing') {
            log.warn(
              { ...where, err: error },
              `The SMTP server at SMTP_HOST=${smtp?.host} SMTP_PORT=${smtp?.port} does not ` +
                `accept connections (${failure.summary}). E-mail is queued and retried; check ` +
                'SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER and SMTP_PASS.',
            );
          }
          observe(false, failure.summary);
        },
      )
      .finally(() => {
        checking = null;
      });
    return checking;
  }

  async function attempt(mail: ClaimedMail, pass: DeliveryPass): Promise<void> {
    if (!transport) return;
    let outcome: AttemptOutcome;
    const deadline = mail.createdAt + MAX_MESSAGE_AGE_MS;
    if (mail.attempt > MAX_ATTEMPTS || now() > deadline) {
      // Left pending by a worker that stopped, or by servers down for longer than it is useful.
      outcome = {
        kind: 'failed',
        reason: 'expired',
        error: `not delivered in time${mail.lastError ? `: ${mail.lastError}` : ''}`,
      };
    } else {
      if (mail.attempt > 1) stats.count('email_retried');
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        observe(true);
        outcome = { kind: 'sent' };
      } catch (error) {
        const failure = classifySmtpError(error);
        stats.count('email_send_errors', failure.reason);
        if (failure.answered && failure.reason !== 'auth') observe(true);
        else observe(false, failure.summary);
        const at = now() + retryDelay(mail.attempt);
        outcome = !failure.transient
          ? { kind: 'failed', reason: 'permanent', error: failure.summary }
          : mail.attempt >= MAX_ATTEMPTS || at > deadline
            ? {
                kind: 'failed',
                reason: 'expired',
                error: `not delivered in time: ${failure.summary}`,
              }
            : { kind: 'retry', error: failure.summary, at };
        log.warn(
          { err: error, mail_id: mail.id, attempt: mail.attempt, outcome: outcome.kind },
          'e-mail delivery attempt failed',
        );
      }
    }
    if (!(await recordAttempt(db, mail, outcome, now()))) {
      log.warn({ mail_id: mail.id }, 'e-mail attempt outlived its claim; its outcome is dropped');
      return;
    }
    if (outcome.kind === 'sent') {
      stats.count('email_sent');
      pass.sent += 1;
    } else if (outcome.kind === 'retry') {
      pass.retrying += 1;
    } else {
      stats.count('email_failed', outcome.reason);
      pass.failed += 1;
      log.error(
        { mail_id: mail.id, reason: outcome.reason, error: outcome.error },
        'e-mail given up',
      );
    }
  }

  async function pass(): Promise<DeliveryPass> {
    const result: DeliveryPass = { sent: 0, retrying: 0, failed: 0 };
    if (!transport) return result;
    try {
      // A server that is stopping finishes the batch in flight, and claims no more.
      for (let batch = 0; batch < MAX_BATCHES_PER_PASS && !closed; batch += 1) {
        const { claimed, scanned } = await claimDueMail(db, box, now(), BATCH_SIZE);
        await Promise.all(claimed.map((mail) => attempt(mail, result)));
        // Fewer due than asked for: none are left (other workers may hold the rest).
        if (scanned < BATCH_SIZE) break;
      }
    } catch (error) {
      log.error({ err: error }, 'e-mail delivery pass failed');
    }
    return result;
  }

  function deliverDue(): Promise<DeliveryPass> {
    const next = chain.then(pass);
    chain = next;
    return next;
  }

  function wake(): void {
    if (wakeQueued || closed) return;
    wakeQueued = true;
    chain = chain.then(() => {
      wakeQueued = false;
      return pass();
    });
  }

  function tick(): void {
    const age = now() - checkedAt;
    if (health.state === 'failing' ? age >= RECHECK_FAILING_MS : age >= RECHECK_OK_MS) {
      void check();
    }
    wake();
  }

  return {
    async send(to, email) {
      if (!transport || options.keepCopies) {
        await writeOutbox(db, { channel: 'email', to, ...email }, now());
      }
      if (!transport) return;
      await enqueueMail(db, box, to, email, now());
      if (timer) wake();
    },
    async start() {
      if (!transport || timer || closed) return;
      timer = setInterval(tick, POLL_INTERVAL_MS);
      timer.unref();
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        check(),
        new Promise<void>((resolve) => {
          waited = setTimeout(resolve, START_CHECK_WAIT_MS);
          waited.unref();
        }),
      ]);
      clearTimeout(waited);
      // Messages queued while no server ran (or by one that stopped) are due now.
      wake();
    },
    deliverDue,
    health: () => health,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await chain;
      await checking;
      transport?.close();
    },
  };
}
