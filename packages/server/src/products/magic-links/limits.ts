/** The send limits of every e-mailed link (magic links and password resets): per address and per client IP. */
import type { Context } from '../../context.js';
import { enforceRateLimits, sendsPerIpRule } from '../../http/rate-limit.js';
import { normalizeEmail } from '../members/service.js';

/**
 * Counts one e-mail send against the client IP's and the address's budgets; throws 429 when
 * either is spent. The address is normalized first so that case variants share one budget.
 *
 * @example
 * await limitEmailSends(ctx, request.ip, body.email_address);
 */
export async function limitEmailSends(ctx: Context, ip: string, address: string): Promise<void> {
  await enforceRateLimits(ctx, [
    sendsPerIpRule(ctx, ip),
    {
      key: `send:email:${normalizeEmail(address)}`,
      limit: ctx.config.rateLimits.sendsPerEmailPerHour,
      windowSeconds: 3600,
    },
  ]);
}
