/**
 * The calls the widget makes to the client, each reporting its outcome as machine events: the
 * start-up sequence and the e-mail form here, the rest in their own modules.
 */
import { EVENT_TYPES } from './callbacks.js';
import { reportFailure, reportSuccess, type EffectContext } from './context.js';
import { emailSendErrorMessage } from './errors.js';
import { authenticateUrlToken } from './tokens.js';
import { slugFromUrl, type UrlToken } from './urls.js';

export type { EffectContext, WidgetEnvironment } from './context.js';
export { chooseDiscoveredOrganization, createOrganization } from './discovery.js';
export { startOAuth, startSso } from './redirects.js';
export { authenticateUrlToken } from './tokens.js';

/**
 * Finds the organization of the organization flow: the slug the page gave, else the one in the
 * page URL by the project's slug pattern.
 */
export async function lookUpOrganization(ctx: EffectContext): Promise<void> {
  let slug = ctx.config.organizationSlug;
  if (slug === null) {
    const { slugPattern } = await ctx.client.bootstrap();
    slug = slugFromUrl(slugPattern, ctx.env.location.origin + ctx.env.location.pathname);
  }
  if (!slug) {
    ctx.dispatch({ type: 'ORGANIZATION_NOT_FOUND' });
    return;
  }
  try {
    const { organization } = await ctx.client.organization.getBySlug({ organization_slug: slug });
    ctx.dispatch(
      organization
        ? { type: 'ORGANIZATION_FOUND', organization }
        : { type: 'ORGANIZATION_NOT_FOUND' },
    );
  } catch (error) {
    reportFailure(ctx, error);
    ctx.dispatch({ type: 'ORGANIZATION_NOT_FOUND' });
  }
}

/** Sends a login link (organization flow) or a discovery link (discovery flow). */
export async function sendEmailMagicLink(ctx: EffectContext, email: string): Promise<void> {
  const state = ctx.getState();
  if (state.form.isSubmitting) return;
  const options = ctx.config.emailMagicLinksOptions;
  const organization = state.flow.type === 'organization' ? state.flow.organization : null;
  ctx.dispatch({ type: 'EMAIL_SUBMITTED' });
  try {
    if (organization) {
      const result = await ctx.client.magicLinks.email.loginOrSignup({
        email_address: email,
        organization_id: organization.organization_id,
        login_redirect_url: options.loginRedirectURL,
        signup_redirect_url: options.signupRedirectURL,
        login_template_id: options.loginTemplateId,
        signup_template_id: options.signupTemplateId,
        locale: ctx.config.locale,
      });
      reportSuccess(ctx, EVENT_TYPES.magicLinkLoginOrSignup, result);
    } else {
      const result = await ctx.client.magicLinks.email.discovery.send({
        email_address: email,
        discovery_redirect_url: options.discoveryRedirectURL,
        login_template_id: options.loginTemplateId,
        locale: ctx.config.locale,
      });
      reportSuccess(ctx, EVENT_TYPES.magicLinkDiscoverySend, result);
    }
    ctx.dispatch({ type: 'EMAIL_SENT', email });
  } catch (error) {
    reportFailure(ctx, error);
    const message = emailSendErrorMessage(
      error,
      email,
      organization?.organization_name ?? null,
      ctx.format,
    );
    ctx.dispatch({ type: 'EMAIL_FAILED', message });
  }
}

/**
 * Everything the widget does once on mount: bootstrap, then a URL token or the slug lookup; on
 * the password reset page, the login link of a reset instead.
 */
export async function start(ctx: EffectContext, urlToken: UrlToken | null): Promise<void> {
  const bootstrapped = ctx.client.bootstrap().then((bootstrap) => {
    ctx.dispatch({ type: 'BOOTSTRAP_LOADED', bootstrap });
  });
  if (ctx.config.authFlowType === 'passwordReset') {
    const resetToken = ctx.getState().password.resetToken;
    const work = [bootstrapped];
    // A discovery reset link has no check that leaves it unspent: the reset itself tells.
    if (resetToken && resetToken.type !== 'discovery') {
      // The password effects load with the password screens, not with every widget.
      const { checkResetLink, redeemResetLink } = await import('./passwords.js');
      work.push(
        resetToken.type === 'multi_tenant_magic_links'
          ? redeemResetLink(ctx, resetToken)
          : checkResetLink(ctx, resetToken),
      );
    }
    await Promise.all(work);
    return;
  }
  if (ctx.getState().screen === 'LoggedIn') {
    await bootstrapped;
    return;
  }
  const work: Promise<void>[] = [bootstrapped];
  if (urlToken) work.push(authenticateUrlToken(ctx, urlToken));
  if (ctx.config.authFlowType === 'organization') work.push(lookUpOrganization(ctx));
  await Promise.all(work);
}
