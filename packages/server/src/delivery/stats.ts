/**
 * Delivery counts of one server, kept as plain numbers here and exposed by `http/metrics.ts`
 * when scraped: sent and failed e-mail and text messages, attempts retried.
 */
import { SmsDeliveryError, type SmsProvider } from './sms.js';

/** What is counted; each name is one Prometheus counter, its labels the `reason`. */
export type DeliveryCounter =
  'email_sent' | 'email_send_errors' | 'email_retried' | 'email_failed' | 'sms_sent' | 'sms_failed';

/** Counters by name and label (`''` when the counter has none). */
export class DeliveryStats {
  readonly #counts = new Map<DeliveryCounter, Map<string, number>>();

  /** Adds one to `name`, under `reason` when the counter has that label. */
  count(name: DeliveryCounter, reason = ''): void {
    const byReason = this.#counts.get(name) ?? new Map<string, number>();
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    this.#counts.set(name, byReason);
  }

  /** The counts of `name`, by reason. */
  read(name: DeliveryCounter): ReadonlyMap<string, number> {
    return this.#counts.get(name) ?? new Map();
  }
}

/** The `reason` of `gatehouse_sms_failed_total`. */
function smsFailureReason(error: unknown): string {
  if (!(error instanceof SmsDeliveryError)) return 'error';
  if (error.status !== null) return 'rejected';
  const cause = error.cause;
  return cause instanceof Error && cause.name === 'TimeoutError' ? 'timeout' : 'unreachable';
}

/**
 * The provider, counting what it accepts and what fails (`rejected`: the provider answered with
 * an error status; `timeout`; `unreachable`). Failures still reach the caller.
 *
 * @example
 * const sms = countingSmsProvider(httpSmsProvider(options), stats);
 */
export function countingSmsProvider(provider: SmsProvider, stats: DeliveryStats): SmsProvider {
  return {
    async send(message) {
      try {
        await provider.send(message);
      } catch (error) {
        stats.count('sms_failed', smsFailureReason(error));
        throw error;
      }
      stats.count('sms_sent');
    },
  };
}
