/** Resolves the caller of an MFA route: the session of the SDK call, or the IST in its body. */
import type { Context } from '../context.js';
import { optionalSession, type SdkCaller } from './auth.js';
import { unwrap } from './errors.js';
import { resolveMfaCaller, type MfaCallInput, type MfaCaller } from '../auth/secondary.js';

/**
 * The caller of an `I` MFA call, or the 4xx that says why there is none (§9). The handler calls
 * it after `parse()`, which decides which 4xx wins: the SDK caller (public token, origin, checked
 * by `route()`), then the body, then the member it names.
 *
 * @example
 * route(ENDPOINTS.totpCreate, async (request, { caller, parse }) => {
 *   const body = parse();
 *   const mfa = await requireMfaCaller(ctx, caller, body);
 *   …
 * });
 */
export async function requireMfaCaller(
  ctx: Context,
  sdk: SdkCaller,
  body: MfaCallInput,
): Promise<MfaCaller> {
  const presented = await optionalSession(ctx, sdk);
  return unwrap(
    await resolveMfaCaller(
      ctx,
      ctx.db,
      sdk.project,
      body,
      {
        presented,
        sent: sdk.sessionToken !== null,
      },
      sdk.client,
    ),
  );
}
