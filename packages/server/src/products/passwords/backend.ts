/** What a host backend's password sign-in (management API `passwords/authenticate`) presents besides the password. */
import type { Context } from '../../context.js';
import type { PresentedSession } from '../../auth/complete.js';
import { sessionNotFound } from '../../auth/errors.js';
import { findLiveSession } from '../../auth/sessions.js';
import type { Project } from '../../tenancy/projects/service.js';
import { fail, type Failure } from '../../result.js';

/**
 * The session a backend's sign-in extends: the live session of `session_token`, or null when none
 * is sent. A dead token is `session_not_found`, as in `sessions/authenticate`. A JWT alone is
 * refused: the answer carries the session's token, which only the token itself gives back.
 * Custom claims are refused rather than dropped, since sessions carry none.
 *
 * @example
 * const presented = unwrap(await presentedToBackend(ctx, project, body));
 */
export async function presentedToBackend(
  ctx: Context,
  project: Project,
  body: {
    session_token?: string | undefined;
    session_jwt?: string | undefined;
    session_custom_claims?: Record<string, unknown> | undefined;
  },
): Promise<PresentedSession | null | Failure> {
  if (body.session_custom_claims && Object.keys(body.session_custom_claims).length > 0) {
    return fail('invalid_request', 'session_custom_claims are not supported.');
  }
  if (!body.session_token) {
    if (body.session_jwt) {
      return fail('invalid_request', 'Send session_token to extend a session; a JWT alone cannot.');
    }
    return null;
  }
  const row = await findLiveSession(ctx.db, project.id, body.session_token, ctx.now());
  return row ? { row, token: body.session_token } : sessionNotFound();
}
