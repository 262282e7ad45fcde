/** Rate limiting at the HTTP boundary: 429 `too_many_requests` with `Retry-After`. */
import type { Context } from '../context.js';
import { countHit, type RateRule } from '../store/rate-limits.js';
import { ApiError } from './errors.js';

/**
 * Counts the request against every rule and throws a 429 if any is exceeded. Every rule is
 * counted even after one fails, so probing one key cannot save budget on another. `message`
 * words the refusal for the caller, given the seconds to wait.
 *
 * @example
 * await enforceRateLimits(ctx, [{ key: `send:ip:${request.ip}`, limit: 100, windowSeconds: 3600 }]);
 */
export async function enforceRateLimits(
  ctx: Context,
  rules: RateRule[],
  message: (retryAfterSeconds: number) => string = () =>
    'Too many requests. Please wait and try again.',
): Promise<void> {
  let retryAfter = 0;
  for (const rule of rules) {
    const hit = await countHit(ctx.db, rule.key, rule.limit, rule.windowSeconds, ctx.now());
    if (!hit.allowed) retryAfter = Math.max(retryAfter, hit.retryAfter);
  }
  if (retryAfter > 0) {
    throw new ApiError('too_many_requests', message(retryAfter), undefined, {
      'Retry-After': String(retryAfter),
    });
  }
}

/**
 * The per-client-IP budget that every send of a project, e-mail or SMS, draws from. Scoped per
 * project, so a busy requester in one project leaves another project's budget alone.
 *
 * @example
 * await enforceRateLimits(ctx, [sendsPerIpRule(ctx, caller.project.id, request.ip)]);
 */
export function sendsPerIpRule(ctx: Context, projectId: string, ip: string): RateRule {
  return {
    key: `send:ip:${projectId}:${ip}`,
    limit: ctx.config.rateLimits.sendsPerIpPerHour,
    windowSeconds: 3600,
  };
}

/**
 * The per-member budget of second-factor attempts: six digits are guessable given enough tries.
 * TOTP codes and recovery codes share it, being ways past the same second factor.
 *
 * @example
 * await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, caller.member.member_id)]);
 */
export function mfaAttemptsRule(ctx: Context, memberId: string): RateRule {
  return {
    key: `mfa:member:${memberId}`,
    limit: ctx.config.rateLimits.mfaAttemptsPerMemberPerHour,
    windowSeconds: 3600,
  };
}
