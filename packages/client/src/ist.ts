/** The IST every call of a multi-step sign-in carries, read from its cookie at call time. */
import type { ClientContext } from './context.js';

/**
 * The request body `args` with `intermediate_session_token` appended, so the server can merge
 * the factors proven so far (docs/protocol.md §9). Undefined when there is none: JSON drops it.
 *
 * @example
 * await ctx.post(PATHS.totpCreate, withIst(ctx, args));
 */
export function withIst<T extends object>(
  ctx: Pick<ClientContext, 'intermediateToken'>,
  args: T,
): T & { intermediate_session_token: string | undefined } {
  return { ...args, intermediate_session_token: ctx.intermediateToken() };
}
