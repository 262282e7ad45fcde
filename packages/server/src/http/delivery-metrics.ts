/**
 * The delivery figures of `GET /metrics`: e-mail sent, failed attempts, retries and messages given
 * up, the queue's backlog, whether SMTP answers, and text messages sent and failed. The counts are
 * kept by the delivery code (delivery/stats.ts) and read when scraped.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { SmtpHealth } from '../delivery/email.js';
import type { DeliveryCounter, DeliveryStats } from '../delivery/stats.js';

/** Where the figures come from. */
export interface DeliverySource {
  stats: DeliveryStats;
  /** The queue's pending messages and the acceptance time of the oldest (null if none). */
  backlog(): Promise<{ pending: number; oldest: string | null }>;
  smtp(): SmtpHealth;
  now(): number;
}

/**
 * Registers the delivery metrics in `registry`.
 *
 * @example
 * registerDeliveryMetrics(registry, { stats, backlog: () => mailBacklog(db), smtp, now });
 */
export function registerDeliveryMetrics(registry: Registry, source: DeliverySource): void {
  const counter = (name: string, help: string, counted: DeliveryCounter, label?: 'reason') =>
    new Counter({
      name,
      help,
      labelNames: label ? [label] : [],
      registers: [registry],
      collect() {
        this.reset();
        for (const [reason, n] of source.stats.read(counted)) {
          if (label) this.inc({ reason }, n);
          else this.inc(n);
        }
      },
    });
  counter('gatehouse_email_sent_total', 'E-mail messages the SMTP server accepted.', 'email_sent');
  counter(
    'gatehouse_email_send_errors_total',
    'Failed e-mail delivery attempts, by reason: connection, timeout, auth (the login was ' +
      'refused), temporary (a 4xx answer) or permanent (a 5xx answer).',
    'email_send_errors',
    'reason',
  );
  counter(
    'gatehouse_email_retried_total',
    'E-mail delivery attempts after the first one of a message.',
    'email_retried',
  );
  counter(
    'gatehouse_email_failed_total',
    'E-mail messages given up, by reason: permanent (refused with 5xx) or expired (not ' +
      'delivered within an hour, or after ten attempts).',
    'email_failed',
    'reason',
  );
  counter('gatehouse_sms_sent_total', 'Text messages the SMS provider accepted.', 'sms_sent');
  counter(
    'gatehouse_sms_failed_total',
    'Text messages the SMS provider did not accept, by reason: rejected (an error status), ' +
      'timeout or unreachable.',
    'sms_failed',
    'reason',
  );
  const oldest = new Gauge({
    name: 'gatehouse_email_queue_oldest_pending_seconds',
    help: 'How long ago the oldest e-mail still waiting for delivery was accepted (0 if none).',
    registers: [registry],
  });
  new Gauge({
    name: 'gatehouse_email_queue_pending',
    help: 'E-mail messages accepted and not yet delivered or given up, in the whole database.',
    registers: [registry],
    async collect() {
      const backlog = await source.backlog();
      this.set(backlog.pending);
      oldest.set(
        backlog.oldest ? Math.max(0, (source.now() - Date.parse(backlog.oldest)) / 1000) : 0,
      );
    },
  });
  new Gauge({
    name: 'gatehouse_smtp_up',
    help:
      'Whether the SMTP server answered the last check or attempt (1) or not (0); absent ' +
      'with the dev inbox and before the first check ends.',
    registers: [registry],
    collect() {
      this.reset();
      const health = source.smtp();
      if (health.state === 'ok') this.set(1);
      else if (health.state === 'failing') this.set(0);
    },
  });
}
