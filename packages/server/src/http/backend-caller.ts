/**
 * Resolves whom a host backend's factor call (management API, secret key) is about: the member
 * it names by `organization_id` and `member_id`, held to the browser API's rules (§9) when it
 * also sends an intermediate session token or a session.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import type { Context } from '../context.js';
import type { PresentedSession } from '../auth/complete.js';
import { NO_CLIENT } from '../auth/client-info.js';
import { needsIstOrSession } from '../auth/errors.js';
import { resolveMfaCaller, type MfaCaller } from '../auth/secondary.js';
import { presentedForBackend } from '../products/sessions/service.js';
import { memberNotFound } from '../tenancy/members/errors.js';
import { memberById } from '../tenancy/members/store.js';
import { organizationNotFound } from '../tenancy/organizations/errors.js';
import { organizationById } from '../tenancy/organizations/store.js';
import type { Project } from '../tenancy/projects/service.js';
import { ApiError, unwrap } from './errors.js';

const JWT_ALONE = 'Send session_token to extend a session; a JWT alone cannot.';

/** What a backend's factor call names and may carry. */
export interface BackendMfaInput {
  organization_id: string;
  member_id: string;
  intermediate_session_token?: string | undefined;
  session_token?: string | undefined;
  session_jwt?: string | undefined;
  session_custom_claims?: Record<string, unknown> | undefined;
}

/**
 * A member of one of the project's organizations, not deleted; 404 `organization_not_found` or
 * `member_not_found` otherwise (a member of another organization or project included).
 *
 * @example
 * const { member, organization } = await requireBackendMember(ctx, project, orgId, memberId);
 */
export async function requireBackendMember(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
): Promise<{ member: Member; organization: Organization }> {
  const [organization, member] = await Promise.all([
    organizationById(ctx.db, project.id, organizationId),
    memberById(ctx.db, project.id, memberId),
  ]);
  if (!organization) return unwrap<never>(organizationNotFound());
  if (!member || member.organization_id !== organizationId || member.status === 'deleted') {
    return unwrap<never>(memberNotFound());
  }
  return { member, organization };
}

/**
 * The caller of a backend's factor call. With an IST or a session beside the member, they decide
 * as in the browser API (`resolveMfaCaller`: an IST of another member or a discovery IST is 401,
 * an unknown one 404). Without either, the secret key vouches for the member itself (sending a
 * code, registering an app, listing codes) — except for `proof` calls, which grant a session and
 * so need what the member has proven already (401 `unauthorized_credentials`).
 *
 * A `proof` call answers the session it extends with its token, which a JWT alone cannot give
 * back: it needs `session_token` (400). Custom claims are refused: sessions carry none.
 *
 * @example
 * const mfa = await requireBackendMfaCaller(ctx, project, body, 'proof');
 */
export async function requireBackendMfaCaller(
  ctx: Context,
  project: Project,
  input: BackendMfaInput,
  needs: 'member' | 'proof',
): Promise<MfaCaller> {
  refuseCustomClaims(input.session_custom_claims);
  const presented = unwrap(await presentedForBackend(ctx, project, input));
  if (needs === 'proof' && presented?.token === '') {
    throw new ApiError('invalid_request', JWT_ALONE);
  }
  if (input.intermediate_session_token || presented) {
    return unwrap(
      await resolveMfaCaller(
        ctx,
        ctx.db,
        project,
        input,
        { presented, sent: presented !== null },
        NO_CLIENT,
      ),
    );
  }
  if (needs === 'proof') return unwrap<never>(needsIstOrSession());
  const { member, organization } = await requireBackendMember(
    ctx,
    project,
    input.organization_id,
    input.member_id,
  );
  return {
    project,
    member,
    organization,
    factors: [],
    intermediateSessionId: null,
    presented: null,
    client: NO_CLIENT,
  };
}

/**
 * Refuses `session_custom_claims` that hold anything (400): Gatehouse's sessions carry none, and
 * dropping them silently would hide that from the host.
 */
export function refuseCustomClaims(claims: Record<string, unknown> | undefined): void {
  if (claims && Object.keys(claims).length > 0) {
    throw new ApiError('invalid_request', 'session_custom_claims are not supported.');
  }
}

/**
 * The session a backend's sign-in (`sso.authenticate`, `oauth.authenticate`) extends: the live
 * session of `session_token`, or null when none is sent (404 `session_not_found` for a dead one).
 * A JWT alone is refused (400): the answer carries the session's token, which only the token
 * itself gives back. Custom claims are refused as in {@link refuseCustomClaims}.
 *
 * @example
 * const presented = await backendSignInSession(ctx, project, body);
 */
export async function backendSignInSession(
  ctx: Context,
  project: Project,
  body: {
    session_token?: string | undefined;
    session_jwt?: string | undefined;
    session_custom_claims?: Record<string, unknown> | undefined;
  },
): Promise<PresentedSession | null> {
  refuseCustomClaims(body.session_custom_claims);
  if (body.session_jwt && !body.session_token) {
    throw new ApiError('invalid_request', JWT_ALONE);
  }
  return unwrap(await presentedForBackend(ctx, project, { session_token: body.session_token }));
}
