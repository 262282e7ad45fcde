/**
 * Google One Tap on the Main screen (docs/widget.md §8): the prompt into the organization or for
 * discovery, developer hints in the console, and a failed submit told to the user. Loaded only by
 * widgets configured with One Tap.
 */
import type { GoogleOneTapStartResult } from '../client.js';
import { reportFailure, type EffectContext } from './context.js';
import { describeError } from './errors.js';

/** What a developer is told in the console, by the reason One Tap did not come up. */
const DEVELOPER_HINTS: Record<string, string> = {
  oauth_config_not_found:
    'no Google OAuth client is configured for One Tap. Turn Google on and set its One Tap client ID (gatehouse oauth set google --onetap-client-id …).',
  default_provider_not_allowed:
    'Google is not an allowed auth method here, so One Tap cannot sign anyone in.',
  unregistered_origin:
    "this page's origin is not an authorized JavaScript origin of the Google OAuth client.",
  invalid_client: 'Google does not know the One Tap client ID configured for the project.',
  missing_client_id: 'Google does not know the One Tap client ID configured for the project.',
};

function warnDeveloper(message: string): void {
  console.warn(`Gatehouse One Tap: ${message}`);
}

/**
 * Shows Google's One Tap prompt. A credential is submitted by the client, which then leaves the
 * page for the redirect URL; a failed submit is reported and shown, and the user stays on Main.
 */
export async function startOneTap(
  ctx: EffectContext,
  onCancelled: (reason: string) => void,
): Promise<GoogleOneTapStartResult> {
  const { flow } = ctx.getState();
  const { loginRedirectURL, signupRedirectURL, discoveryRedirectURL } = ctx.config.oauth;
  const onOneTapError = (error: unknown) => {
    reportFailure(ctx, error);
    ctx.env.toastError(describeError(error, ctx.format).message);
  };
  const oneTap = ctx.client.oauth.googleOneTap;
  let result: GoogleOneTapStartResult;
  if (flow.type === 'organization' && flow.organization) {
    if (!loginRedirectURL || !signupRedirectURL) {
      warnDeveloper(
        "oauthOptions.loginRedirectURL or signupRedirectURL is missing; the project's default redirect URLs are used.",
      );
    }
    result = await oneTap.start({
      organization_id: flow.organization.organization_id,
      login_redirect_url: loginRedirectURL,
      signup_redirect_url: signupRedirectURL,
      onOneTapCancelled: onCancelled,
      onOneTapError,
    });
  } else {
    if (!discoveryRedirectURL) {
      warnDeveloper(
        "oauthOptions.discoveryRedirectURL is missing; the project's default discovery redirect URL is used.",
      );
    }
    result = await oneTap.discovery.start({
      discovery_redirect_url: discoveryRedirectURL,
      onOneTapCancelled: onCancelled,
      onOneTapError,
    });
  }
  if (!result.success) {
    const hint = DEVELOPER_HINTS[result.reason];
    if (hint) warnDeveloper(hint);
  }
  return result;
}

/** Closes the prompt when Main goes away. */
export function cancelOneTap(ctx: EffectContext): void {
  ctx.client.oauth.googleOneTap.cancel();
}
