/** Leaving the page for an identity provider: OAuth and SSO starts. */
import type { ResolvedOAuthProvider } from '../config.js';
import { reportFailure, type EffectContext } from './context.js';
import { describeError } from './errors.js';

/**
 * Leaves the page for an identity provider. The client builds the start URL (with PKCE when
 * bootstrap requires it) and navigates; if it cannot, the user is told and stays.
 */
export async function redirect(
  ctx: EffectContext,
  returnTo: 'Main' | 'Discovery',
  navigate: () => Promise<void>,
): Promise<void> {
  ctx.dispatch({ type: 'REDIRECTING' });
  try {
    await navigate();
  } catch (error) {
    reportFailure(ctx, error);
    ctx.env.toastError(describeError(error, ctx.format).message);
    ctx.dispatch({ type: 'REDIRECT_FAILED', returnTo });
  }
}

/** Starts OAuth with a provider: into the current organization, or discovery. */
export async function startOAuth(
  ctx: EffectContext,
  provider: ResolvedOAuthProvider,
): Promise<void> {
  const { flow } = ctx.getState();
  const methods = ctx.client.oauth[provider.type];
  const shared = {
    custom_scopes: provider.customScopes.length > 0 ? provider.customScopes : undefined,
    provider_params:
      Object.keys(provider.providerParams).length > 0 ? provider.providerParams : undefined,
  };
  const organization = flow.type === 'organization' ? flow.organization : null;
  await redirect(ctx, 'Main', () =>
    organization
      ? methods.start({
          organization_id: organization.organization_id,
          login_redirect_url: ctx.config.oauth.loginRedirectURL,
          signup_redirect_url: ctx.config.oauth.signupRedirectURL,
          ...shared,
        })
      : methods.discovery.start({
          discovery_redirect_url: ctx.config.oauth.discoveryRedirectURL,
          ...shared,
        }),
  );
}

/** Starts SSO with one of the organization's connections. */
export async function startSso(ctx: EffectContext, connectionId: string): Promise<void> {
  const { loginRedirectURL, signupRedirectURL } = ctx.config.ssoOptions;
  await redirect(ctx, 'Main', () =>
    ctx.client.sso.start({
      connection_id: connectionId,
      login_redirect_url: loginRedirectURL,
      signup_redirect_url: signupRedirectURL,
    }),
  );
}
