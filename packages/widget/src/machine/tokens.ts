/** Redeeming the redirect token in the page URL on load (docs/widget.md §4 "On page load"). */
import type { AuthResult, DiscoveryResult } from '@gatehouse/protocol';
import { EVENT_TYPES, type EventType } from './callbacks.js';
import {
  clearUrlQuery,
  completePrimaryAuth,
  reportFailure,
  reportSuccess,
  type EffectContext,
} from './context.js';
import { showDiscoveredOrganizations } from './discovery.js';
import type { ErrorScreenType } from './state.js';
import type { AutoAuthenticatedTokenType, UrlToken } from './urls.js';

/** How each redirect token type is redeemed on load (docs/widget.md §4 "On page load"). */
type TokenRedemption =
  | {
      kind: 'primary';
      event: EventType;
      /** Which message the Error screen shows when redeeming fails. */
      failure: ErrorScreenType;
      redeem(ctx: EffectContext, token: string): Promise<AuthResult>;
    }
  | {
      kind: 'discovery';
      event: EventType;
      failure: ErrorScreenType;
      redeem(ctx: EffectContext, token: string): Promise<DiscoveryResult>;
    };

const REDEMPTIONS: Record<AutoAuthenticatedTokenType, TokenRedemption> = {
  multi_tenant_magic_links: {
    kind: 'primary',
    event: EVENT_TYPES.magicLinkAuthenticate,
    failure: 'email_magic_link',
    redeem: (ctx, token) =>
      ctx.client.magicLinks.authenticate({
        magic_links_token: token,
        session_duration_minutes: ctx.config.sessionDurationMinutes,
        locale: ctx.config.locale,
      }),
  },
  discovery: {
    kind: 'discovery',
    event: EVENT_TYPES.magicLinkDiscoveryAuthenticate,
    failure: 'default',
    redeem: (ctx, token) =>
      ctx.client.magicLinks.discovery.authenticate({ discovery_magic_links_token: token }),
  },
  oauth: {
    kind: 'primary',
    event: EVENT_TYPES.oauthAuthenticate,
    failure: 'default',
    redeem: (ctx, token) =>
      ctx.client.oauth.authenticate({
        oauth_token: token,
        session_duration_minutes: ctx.config.sessionDurationMinutes,
      }),
  },
  discovery_oauth: {
    kind: 'discovery',
    event: EVENT_TYPES.oauthDiscoveryAuthenticate,
    failure: 'default',
    redeem: (ctx, token) =>
      ctx.client.oauth.discovery.authenticate({ discovery_oauth_token: token }),
  },
  sso: {
    kind: 'primary',
    event: EVENT_TYPES.ssoAuthenticate,
    failure: 'default',
    redeem: (ctx, token) =>
      ctx.client.sso.authenticate({
        sso_token: token,
        session_duration_minutes: ctx.config.sessionDurationMinutes,
      }),
  },
};

/** Authenticates a redirect token found in the URL on load (docs/widget.md §4 "On page load"). */
export async function authenticateUrlToken(ctx: EffectContext, urlToken: UrlToken): Promise<void> {
  const redemption = REDEMPTIONS[urlToken.type];
  let result: AuthResult | DiscoveryResult;
  try {
    result = await redemption.redeem(ctx, urlToken.token);
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'FAILED', errorType: redemption.failure });
    return;
  }
  // Tokens are single-use: a reload must not replay this one.
  clearUrlQuery(ctx);
  reportSuccess(ctx, redemption.event, result);
  if (redemption.kind === 'primary') completePrimaryAuth(ctx, result as AuthResult);
  else await showDiscoveredOrganizations(ctx, result as DiscoveryResult);
}
