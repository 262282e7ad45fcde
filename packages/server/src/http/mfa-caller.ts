/** Resolves the caller of an MFA route: the session of the SDK call, or the IST in its body. */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { optionalSession, sdkCaller, type SdkCaller } from './auth.js';
import { unwrap } from './errors.js';
import { parseBody } from './validate.js';
import { resolveMfaCaller, type MfaCallInput, type MfaCaller } from '../auth/secondary.js';

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

/**
 * The preamble of every MFA route, in the order that decides which 4xx wins: the SDK caller
 * (public token, origin), then the body, then the member it names.
 *
 * @example
 * const { body, caller } = await mfaRequest(ctx, request, AuthenticateBody);
 */
export async function mfaRequest<T extends z.ZodType<MfaCallInput>>(
  ctx: Context,
  request: FastifyRequest,
  schema: T,
): Promise<{ body: z.output<T>; caller: MfaCaller }> {
  const sdk = await sdkCaller(ctx, request);
  const body = parseBody(schema, request.body);
  const caller = await requireMfaCaller(ctx, sdk, body);
  return { body, caller };
}
