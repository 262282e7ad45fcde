/** Resolves the caller of an MFA route: the session of the SDK call, or the IST in its body. */
import type { Context } from '../../context.js';
import { optionalSession, type SdkCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { resolveMfaCaller, type MfaCallInput, type MfaCaller } from './secondary.js';

/**
 * The caller of an `I` MFA call, or the 4xx that says why there is none (§9).
 *
 * @example
 * const caller = await requireMfaCaller(ctx, await sdkCaller(ctx, request), body);
 */
export async function requireMfaCaller(
  ctx: Context,
  sdk: SdkCaller,
  body: MfaCallInput,
): Promise<MfaCaller> {
  const presented = await optionalSession(ctx, sdk);
  return unwrap(
    await resolveMfaCaller(ctx, ctx.db, sdk.project, body, {
      presented,
      sent: sdk.sessionToken !== null,
    }),
  );
}
