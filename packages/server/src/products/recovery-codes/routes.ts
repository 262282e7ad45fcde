/**
 * The recovery-code endpoints of §7.7: recover (IST or session), rotate and get (session); and
 * the management API's, which name the member.
 */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SESSION_DURATION_MINUTES } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { requireBackendMember, requireBackendMfaCaller } from '../../http/backend-caller.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits, mfaAttemptsRule } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { requireMfaCaller } from '../../http/mfa-caller.js';
import { listRecoveryCodes, recoverWithCode, rotateRecoveryCodes } from './service.js';

/** Registers the recovery-code routes. */
export function registerRecoveryCodes(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.recoveryCodesRecover, async (request, { caller, parse }) => {
    const body = parse();
    const mfa = await requireMfaCaller(ctx, caller, body);
    // Shares the TOTP budget: both are ways past the same second factor.
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, mfa.member.member_id)]);
    return ok(
      request,
      unwrap(await recoverWithCode(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });

  route(ENDPOINTS.recoveryCodesRotate, async (request, { caller }) =>
    ok(request, unwrap(await rotateRecoveryCodes(ctx, caller.project, caller.session))),
  );

  route(ENDPOINTS.recoveryCodesGet, async (request, { caller }) =>
    ok(request, unwrap(await listRecoveryCodes(ctx, caller.project, caller.session))),
  );

  // The management API's `recoveryCodes.recover`, `rotate` and `get` (secret key).
  route(ENDPOINTS.backendRecoveryCodesRecover, async (request, { caller: project, parse }) => {
    const body = parse();
    const mfa = await requireBackendMfaCaller(ctx, project, body, 'proof');
    await enforceRateLimits(ctx, [mfaAttemptsRule(ctx, mfa.member.member_id)]);
    return ok(
      request,
      unwrap(await recoverWithCode(ctx, mfa, body, DEFAULT_SESSION_DURATION_MINUTES)),
    );
  });

  route(ENDPOINTS.backendRecoveryCodesRotate, async (request, { caller: project, parse }) => {
    const { organization_id, member_id } = parse();
    const owner = await requireBackendMember(ctx, project, organization_id, member_id);
    const codes = unwrap(await rotateRecoveryCodes(ctx, project, { member_id }));
    return ok(request, { member_id, ...owner, ...codes });
  });

  route(ENDPOINTS.backendRecoveryCodesGet, async (request, { caller: project }) => {
    const { organization_id, member_id } = request.params;
    const owner = await requireBackendMember(ctx, project, organization_id, member_id);
    const codes = unwrap(await listRecoveryCodes(ctx, project, { member_id }));
    return ok(request, { member_id, ...owner, ...codes });
  });
}
