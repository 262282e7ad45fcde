/** The discovery effects: listing, choosing and creating organizations (docs/widget.md §4 "Discovery"). */
import type { DiscoveredOrganization, DiscoveryResult } from '@gatehouse/protocol';
import { EVENT_TYPES } from './callbacks.js';
import {
  completePrimaryAuth,
  reportFailure,
  reportSuccess,
  type EffectContext,
} from './context.js';
import { describeError } from './errors.js';
import { redirect } from './redirects.js';
import { directLoginOrganization, discoveredOrganizationStep } from './selectors.js';

/** Shows the discovered organizations, or enters the only one when direct login applies. */
export async function showDiscoveredOrganizations(
  ctx: EffectContext,
  result: DiscoveryResult,
): Promise<void> {
  ctx.dispatch({
    type: 'DISCOVERY_AUTHENTICATED',
    email: result.email_address,
    discoveredOrganizations: result.discovered_organizations,
    intermediateSessionToken: result.intermediate_session_token,
  });
  const only = directLoginOrganization(
    result.discovered_organizations,
    ctx.config.directLoginForSingleMembership,
  );
  if (only) await chooseDiscoveredOrganization(ctx, only);
}

/** Enters a discovered organization (docs/widget.md §4 "Discovery"). */
export async function chooseDiscoveredOrganization(
  ctx: EffectContext,
  discovered: DiscoveredOrganization,
): Promise<void> {
  const step = discoveredOrganizationStep(discovered);
  if (step.kind === 'startSso') {
    // The discovery path passes no redirect URLs: the project defaults apply.
    await redirect(ctx, 'Discovery', () =>
      ctx.client.sso.start({ connection_id: step.connectionId }),
    );
    return;
  }
  if (step.kind === 'showLogin') {
    ctx.dispatch({ type: 'DISCOVERY_LOGIN_REQUIRED', discovered });
    return;
  }
  ctx.dispatch({ type: 'AUTH_STARTED' });
  try {
    const result = await ctx.client.discovery.intermediateSessions.exchange({
      organization_id: discovered.organization.organization_id,
      session_duration_minutes: ctx.config.sessionDurationMinutes,
    });
    reportSuccess(ctx, EVENT_TYPES.discoveryIntermediateSessionExchange, result);
    completePrimaryAuth(ctx, result);
  } catch (error) {
    reportFailure(ctx, error);
    // The other organizations are still there to choose from: say what failed and go back.
    ctx.env.toastError(describeError(error, ctx.format).message);
    ctx.dispatch({ type: 'DISCOVERY_EXCHANGE_FAILED' });
  }
}

/** Creates an organization for the discovered e-mail and logs in to it. */
export async function createOrganization(ctx: EffectContext): Promise<void> {
  ctx.dispatch({ type: 'AUTH_STARTED' });
  try {
    const result = await ctx.client.discovery.organizations.create({
      session_duration_minutes: ctx.config.sessionDurationMinutes,
    });
    reportSuccess(ctx, EVENT_TYPES.discoveryOrganizationsCreate, result);
    completePrimaryAuth(ctx, result);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FAILED', errorType: 'default' });
  }
}
