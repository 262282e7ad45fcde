/** Rotating the server's JWT signing key from the management API and the CLI. */
import type { SigningKeySummary } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { MIN_ROTATION_INTERVAL_MS } from '../../crypto/signing-keys.js';
import { fail, type Failure } from '../../result.js';

/**
 * Makes a new key sign session JWTs. The keys are the server's, shared by its projects: any
 * project's secret key may rotate them, which never invalidates a JWT before it expires.
 */
export async function rotateSigningKey(ctx: Context): Promise<SigningKeySummary | Failure> {
  const key = await ctx.keys.rotate();
  if (key === 'too-soon') {
    return fail(
      'too_many_requests',
      `The signing key was rotated less than ${MIN_ROTATION_INTERVAL_MS / 1000} seconds ago.`,
    );
  }
  return key;
}
