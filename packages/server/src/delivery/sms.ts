/** SMS delivery: the provider interface, an HTTP provider for production, and the message text. */
import { SMS_CODE_SECONDS } from '@gatehouse/protocol';
import { copyFor } from './copy.js';

/** One text message. */
export interface SmsMessage {
  /** The recipient, in E.164. */
  to: string;
  body: string;
}

/** Sends text messages. `send` resolves once the provider has accepted the message. */
export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}

/** Options of {@link httpSmsProvider}. */
export interface HttpSmsProviderOptions {
  /** The endpoint that accepts `POST {to, from, body}` as JSON. */
  url: string;
  /** Sent as `Authorization: Bearer {authToken}`. */
  authToken: string;
  /** The sender number or id. */
  from: string;
  /** How long to wait for the provider before failing the send. */
  timeoutMs: number;
  /** The fetch implementation; the global one by default. */
  fetch?: typeof fetch;
}

/** Raised when the SMS provider refuses a message, fails, or does not answer in time. */
export class SmsDeliveryError extends Error {
  override readonly name = 'SmsDeliveryError';
  /** The provider's HTTP status, when it answered. */
  readonly status: number | null;

  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

// Enough of an error body to diagnose a refusal without flooding the log.
const ERROR_BODY_LIMIT = 200;

/**
 * An SMS provider reached over HTTP: each message is one `POST {url}` with the JSON body
 * `{to, from, body}` and `Authorization: Bearer {authToken}`. Any 2xx is success; any other
 * answer, a network failure or a timeout rejects with {@link SmsDeliveryError}. The error never
 * contains the message text, which holds the code.
 *
 * @example
 * const sms = httpSmsProvider({ url: 'https://sms.example.com/messages', authToken, from: '+15550100', timeoutMs: 5000 });
 * await sms.send({ to: '+14155552671', body: smsText('042917', 'Acme') });
 */
export function httpSmsProvider(options: HttpSmsProviderOptions): SmsProvider {
  const fetchImpl = options.fetch ?? fetch;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetchImpl(options.url, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${options.authToken}`,
            'Content-Type': 'application/json',
            Accept: 'application/json',
          },
          body: JSON.stringify({ to: message.to, from: options.from, body: message.body }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        throw new SmsDeliveryError(
          timedOut
            ? `SMS provider did not answer within ${options.timeoutMs} ms`
            : 'SMS provider could not be reached',
          null,
          { cause: error },
        );
      }
      if (response.ok) {
        // Drain the body so the connection can be reused.
        await response.arrayBuffer().catch(() => undefined);
        return;
      }
      const detail = (await response.text().catch(() => '')).slice(0, ERROR_BODY_LIMIT).trim();
      throw new SmsDeliveryError(
        `SMS provider answered ${response.status}${detail ? `: ${detail}` : ''}`,
        response.status,
      );
    },
  };
}

/**
 * The text of a verification SMS, in the language of `locale` (English by default).
 *
 * @example
 * smsText('042917', 'Acme'); // 'Your Acme verification code is 042917. It expires in 2 minutes.'
 */
export function smsText(code: string, appName: string, locale?: string | null): string {
  return copyFor(locale).sms(appName, code, SMS_CODE_SECONDS / 60);
}
