/** The send limits of every e-mailed link (magic links and password resets): per requester, per project. */
import type { Context } from '../context.js';
import { enforceRateLimits, sendsPerIpRule } from './rate-limit.js';
import { normalizeEmail } from '../tenancy/members/store.js';

/**
 * Counts one e-mail send against the requester's budgets in the project: all its sends, and its
 * sends to this address; throws 429 when either is spent. The address budget belongs to the
 * requester (client IP), not to the address: a stranger who spends theirs is refused, while the
 * owner, asking from elsewhere, still gets a link. The address is normalized first so that case
 * variants share one budget.
 *
 * @example
 * await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
 */
export async function limitEmailSends(
  ctx: Context,
  projectId: string,
  ip: string,
  address: string,
): Promise<void> {
  await enforceRateLimits(
    ctx,
    [
      sendsPerIpRule(ctx, projectId, ip),
      {
        key: `send:email:${projectId}:${ip}:${normalizeEmail(address)}`,
        limit: ctx.config.rateLimits.sendsPerEmailPerHour,
        windowSeconds: 3600,
      },
    ],
    sendRefusal,
  );
}

/** What a refused requester reads: about its own requests only, never about the address. */
function sendRefusal(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many e-mails were requested from your network. Check your inbox for a link already sent, or try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
