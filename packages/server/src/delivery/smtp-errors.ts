/** What a failed SMTP attempt means: worth retrying or not, a metrics label, and a safe summary. */

/** The `reason` label of `gatehouse_email_send_errors_total`. */
export type SmtpErrorReason = 'connection' | 'timeout' | 'auth' | 'temporary' | 'permanent';

/** One failed attempt, classified. */
export interface SmtpFailure {
  reason: SmtpErrorReason;
  /** Worth another attempt later: the server was unreachable or answered 4xx. */
  transient: boolean;
  /** The server took the connection and answered a command (so it is up), whatever it answered. */
  answered: boolean;
  /**
   * A short description without addresses or credentials, fit for `/readyz` and the queue's
   * `last_error`; the log gets the whole error.
   */
  summary: string;
}

/**
 * Classifies a nodemailer error. An SMTP answer of 5xx to the message refuses it for good
 * (`permanent`); 4xx asks to try later (`temporary`). A refused login (`auth`, 535 included) is
 * a configuration problem of the server, not of the message: retried, so that messages survive
 * until an operator fixes the credentials. No answer at all (`connection`, `timeout`) is retried.
 *
 * @example
 * classifySmtpError(Object.assign(new Error('…550 No such user'), { code: 'EENVELOPE', responseCode: 550 }));
 * // { reason: 'permanent', transient: false, answered: true, summary: 'rejected with 550 at RCPT TO' }
 */
export function classifySmtpError(error: unknown): SmtpFailure {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown };
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof e.code === 'string' ? e.code : '';
  const status = typeof e.responseCode === 'number' ? e.responseCode : null;
  const command = typeof e.command === 'string' ? e.command : '';
  const at = command && command !== 'CONN' ? ` at ${command}` : '';
  if (code === 'EAUTH' || code === 'ENOAUTH') {
    return {
      reason: 'auth',
      transient: true,
      answered: true,
      summary: `authentication failed${status ? ` (${status})` : ''}`,
    };
  }
  if (status !== null && status >= 400 && status < 600) {
    const permanent = status >= 500;
    return {
      reason: permanent ? 'permanent' : 'temporary',
      transient: !permanent,
      // Refused at the greeting (421, 554): the server does not take mail at all just now.
      answered: command !== 'CONN',
      summary: `rejected with ${status}${at}`,
    };
  }
  if (code === 'ETIMEDOUT' || /timeout|timed out/i.test(message)) {
    return { reason: 'timeout', transient: true, answered: false, summary: 'timed out' };
  }
  const cause = /ECONNREFUSED/.test(message)
    ? 'connection refused'
    : /ENOTFOUND|EAI_AGAIN/.test(message) || code === 'EDNS'
      ? 'host not found'
      : /ECONNRESET|EPIPE/.test(message)
        ? 'connection reset'
        : code === 'ETLS' || /TLS|SSL|certificate/i.test(message)
          ? 'TLS failed'
          : `connection failed${code ? ` (${code})` : ''}`;
  return { reason: 'connection', transient: true, answered: false, summary: cause };
}
