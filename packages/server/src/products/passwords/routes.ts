/** The password endpoints of §7.2. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { router } from '../../http/route.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { NO_CLIENT } from '../../auth/client-info.js';
import { optionalSession } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { limitEmailSends } from '../../http/send-limits.js';
import { checkResetToken, resetPasswordByEmail, startPasswordReset } from './reset.js';
import { migratePassword } from './migrate.js';
import { backendResetBySession, backendResetStart } from './backend.js';
import { discoverByPassword } from './discovery.js';
import { requireReset } from './require-reset.js';
import { resetDiscoveryPassword, startDiscoveryPasswordReset } from './discovery-reset.js';
import { backendSignInSession } from '../../http/backend-caller.js';
import { refuseCustomClaims } from '../../http/backend-caller.js';
import { memberEmailId } from '../../tenancy/members/store.js';
import { presentedForBackend } from '../sessions/service.js';
import {
  authenticatePassword,
  passwordStrength,
  resetByExistingPassword,
  resetBySession,
} from './service.js';

/**
 * Guesses (sign-ins, existing-password resets) are limited per client IP across all addresses,
 * on top of the per-address throttle in the service.
 */
async function limitGuesses(ctx: Context, request: FastifyRequest): Promise<void> {
  await enforceRateLimits(ctx, [
    {
      key: `password:ip:${request.ip}`,
      limit: ctx.config.rateLimits.passwordAttemptsPerIpPerHour,
      windowSeconds: 3600,
    },
  ]);
}

/** Registers the password routes. */
export function registerPasswords(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  route(ENDPOINTS.passwordsAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    await limitGuesses(ctx, request);
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(
        await authenticatePassword(ctx, caller.project, body, presented, request.ip, caller.client),
      ),
    );
  });

  route(ENDPOINTS.passwordsDiscoveryAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    await limitGuesses(ctx, request);
    return ok(request, unwrap(await discoverByPassword(ctx, caller.project, body, request.ip)));
  });

  route(ENDPOINTS.passwordsResetStart, async (request, { caller, parse }) => {
    const body = parse();
    // Reset e-mails share the magic-link send limits.
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    return ok(request, unwrap(await startPasswordReset(ctx, caller.project, body)));
  });

  route(ENDPOINTS.passwordsDiscoveryResetStart, async (request, { caller, parse }) => {
    const body = parse();
    // Counted for unknown addresses too: the limits must not tell which addresses are known.
    await limitEmailSends(ctx, caller.project.id, request.ip, body.email_address);
    return ok(request, unwrap(await startDiscoveryPasswordReset(ctx, caller.project, body)));
  });

  route(ENDPOINTS.passwordsDiscoveryReset, async (request, { caller, parse }) => {
    const body = parse();
    return ok(request, unwrap(await resetDiscoveryPassword(ctx, caller.project, body)));
  });

  route(ENDPOINTS.passwordsResetByEmail, async (request, { caller, parse }) => {
    const body = parse();
    // A session sent along is not extended: the new password ends it with all the others.
    return ok(
      request,
      unwrap(await resetPasswordByEmail(ctx, caller.project, body, caller.client)),
    );
  });

  route(ENDPOINTS.passwordsResetCheck, async (request, { caller, parse }) => {
    const body = parse();
    const failure = await checkResetToken(ctx, caller.project, body);
    return ok(request, unwrap(failure ?? {}));
  });

  route(ENDPOINTS.passwordsResetExisting, async (request, { caller, parse }) => {
    const body = parse();
    await limitGuesses(ctx, request);
    // A session sent along is not extended: the new password ends it with all the others.
    return ok(
      request,
      unwrap(await resetByExistingPassword(ctx, caller.project, body, request.ip, caller.client)),
    );
  });

  route(ENDPOINTS.passwordsResetSession, async (request, { caller, parse }) => {
    const body = parse();
    const { project, session } = caller;
    const options = { existingPassword: body.existing_password, clientIp: request.ip };
    return ok(request, unwrap(await resetBySession(ctx, project, session, body.password, options)));
  });

  route(ENDPOINTS.passwordsStrengthCheck, async (request, { caller, parse }) => {
    const body = parse();
    return ok(
      request,
      await passwordStrength(ctx, caller.project, body.password, body.email_address),
    );
  });

  // The management API's calls (secret key): a host backend migrating hashes and signing
  // members in on their behalf.
  route(ENDPOINTS.migratePassword, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, unwrap(await migratePassword(ctx, project, body)));
  });

  route(ENDPOINTS.backendPasswordsAuthenticate, async (request, { caller: project, parse }) => {
    const body = parse();
    // No per-IP limit: every member of the host signs in from its backend's address. The
    // per-address throttle of the service still applies.
    const presented = await backendSignInSession(ctx, project, body);
    return ok(
      request,
      unwrap(await authenticatePassword(ctx, project, body, presented, request.ip, NO_CLIENT)),
    );
  });

  route(ENDPOINTS.backendPasswordsResetStart, async (request, { caller: project, parse }) => {
    const body = parse();
    // Reset e-mails share the magic-link send limits, as in the browser API.
    await limitEmailSends(ctx, project.id, request.ip, body.email_address);
    return ok(request, unwrap(await backendResetStart(ctx, project, body)));
  });

  route(ENDPOINTS.backendPasswordsReset, async (request, { caller: project, parse }) => {
    const body = parse();
    refuseCustomClaims(body.session_custom_claims);
    // A session sent along is not extended: the new password ends it with all the others.
    const outcome = unwrap(await resetPasswordByEmail(ctx, project, body, NO_CLIENT));
    return ok(request, {
      ...outcome,
      member_email_id: await memberEmailId(ctx.db, outcome.member.member_id),
      organization_id: outcome.organization.organization_id,
    });
  });

  route(
    ENDPOINTS.backendPasswordsDiscoveryAuthenticate,
    async (request, { caller: project, parse }) => {
      const body = parse();
      // No per-IP limit, as for the backend's sign-in; the per-address throttle still applies.
      return ok(request, unwrap(await discoverByPassword(ctx, project, body, request.ip)));
    },
  );

  route(ENDPOINTS.backendPasswordsResetExisting, async (request, { caller: project, parse }) => {
    const body = parse();
    refuseCustomClaims(body.session_custom_claims);
    // No per-IP limit, as for the backend's sign-in: the per-address throttle of the service
    // counts every guess of the current password. A session sent along is not extended: the new
    // password ends it with all the others.
    return ok(
      request,
      unwrap(await resetByExistingPassword(ctx, project, body, request.ip, NO_CLIENT)),
    );
  });

  route(ENDPOINTS.backendPasswordsResetSession, async (request, { caller: project, parse }) => {
    const body = parse();
    refuseCustomClaims(body.session_custom_claims);
    // The session's own token is answered back: '' when only its JWT was sent.
    const presented = unwrap(await presentedForBackend(ctx, project, body));
    return ok(request, unwrap(await backendResetBySession(ctx, project, presented, body)));
  });

  route(
    ENDPOINTS.backendPasswordsDiscoveryResetStart,
    async (request, { caller: project, parse }) => {
      const body = parse();
      // Reset e-mails share the magic-link send limits, as in the browser API.
      await limitEmailSends(ctx, project.id, request.ip, body.email_address);
      return ok(request, unwrap(await startDiscoveryPasswordReset(ctx, project, body)));
    },
  );

  route(ENDPOINTS.backendPasswordsDiscoveryReset, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, unwrap(await resetDiscoveryPassword(ctx, project, body)));
  });

  route(ENDPOINTS.backendPasswordsRequireReset, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, unwrap(await requireReset(ctx, project, body)));
  });

  route(ENDPOINTS.backendPasswordsStrengthCheck, async (request, { caller: project, parse }) => {
    const body = parse();
    return ok(request, await passwordStrength(ctx, project, body.password, body.email_address));
  });
}
