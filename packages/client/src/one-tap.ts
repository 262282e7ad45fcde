/**
 * Google One Tap (docs/protocol.md §7.8): the project's One Tap client ID from the server, Google
 * Identity Services loaded on demand, and the credential it hands over submitted for a redirect.
 */
import { PATHS } from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { GatehouseAPIError } from './errors.js';
import type {
  GoogleOneTapDiscoveryStartArgs,
  GoogleOneTapMethods,
  GoogleOneTapStartArgs,
  GoogleOneTapStartResult,
} from './types.js';
import { check } from './validate.js';

/** Where Google serves its Identity Services library. */
export const GOOGLE_IDENTITY_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

/** The part of Google Identity Services' `google.accounts.id` that One Tap uses. */
interface PromptMoment {
  isDisplayMoment?(): boolean;
  isDisplayed?(): boolean;
  isNotDisplayed?(): boolean;
  getNotDisplayedReason?(): string;
  isSkippedMoment?(): boolean;
  getSkippedReason?(): string;
  isDismissedMoment?(): boolean;
  getDismissedReason?(): string;
}

interface GoogleIdentity {
  initialize(options: {
    client_id: string;
    callback: (response: { credential?: string }) => void;
    cancel_on_tap_outside?: boolean;
    auto_select?: boolean;
    itp_support?: boolean;
    use_fedcm_for_prompt?: boolean;
  }): void;
  prompt(listener?: (moment: PromptMoment) => void): void;
  cancel(): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdentity } };
  }
}

const identityOf = (): GoogleIdentity | undefined => window.google?.accounts?.id;

/** Loads the library once per page; resolves with it, or null when it cannot load. */
function loadIdentityScript(src: string): Promise<GoogleIdentity | null> {
  const present = identityOf();
  if (present) return Promise.resolve(present);
  return new Promise((resolve) => {
    let script = document.querySelector<HTMLScriptElement>(`script[data-gatehouse-one-tap]`);
    if (!script) {
      script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.dataset.gatehouseOneTap = '';
      document.head.append(script);
    }
    script.addEventListener('load', () => resolve(identityOf() ?? null), { once: true });
    script.addEventListener('error', () => resolve(null), { once: true });
  });
}

/**
 * One Tap on the given library URL. Its calls go to the API base, like the OAuth starts; the
 * submit answers a URL carrying an `oauth` or `discovery_oauth` token, which the page follows.
 */
export function createGoogleOneTap(ctx: ClientContext, scriptUrl: string): GoogleOneTapMethods {
  const challenge = async () => {
    const { pkceRequiredForOAuth } = await ctx.bootstrap.ready;
    if (!pkceRequiredForOAuth) {
      ctx.pkce.clear('oauth');
      return undefined;
    }
    return (await ctx.pkce.create('oauth')).code_challenge;
  };

  async function run(
    args: GoogleOneTapStartArgs | GoogleOneTapDiscoveryStartArgs,
    submit: (idToken: string, pkceCodeChallenge: string | undefined) => Promise<string>,
  ): Promise<GoogleOneTapStartResult> {
    let clientId: string;
    try {
      ({ google_client_id: clientId } = await ctx.api.get<{ google_client_id: string }>(
        PATHS.oneTapStart,
      ));
    } catch (error) {
      return {
        success: false,
        reason: error instanceof GatehouseAPIError ? error.error_type : 'unknown_reason',
      };
    }
    // An empty ID means One Tap is off for the project: no script is loaded.
    if (!clientId) return { success: false, reason: 'oauth_config_not_found' };
    const identity = await loadIdentityScript(scriptUrl);
    if (!identity) return { success: false, reason: 'unknown_reason' };

    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: GoogleOneTapStartResult) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      identity.initialize({
        client_id: clientId,
        cancel_on_tap_outside: args.cancel_on_tap_outside ?? true,
        itp_support: true,
        use_fedcm_for_prompt: true,
        callback: ({ credential }) => {
          if (!credential) return;
          void (async () => {
            try {
              ctx.navigate(await submit(credential, await challenge()));
            } catch (error) {
              args.onOneTapError?.(error);
            }
          })();
        },
      });
      identity.prompt((moment) => {
        if (moment.isNotDisplayed?.()) {
          settle({ success: false, reason: moment.getNotDisplayedReason?.() ?? 'unknown_reason' });
        } else if (moment.isSkippedMoment?.()) {
          const reason = moment.getSkippedReason?.() ?? 'unknown_reason';
          settle({ success: false, reason });
          args.onOneTapCancelled?.(reason);
        } else if (moment.isDisplayMoment?.() || moment.isDisplayed?.()) {
          settle({ success: true });
        } else if (moment.isDismissedMoment?.()) {
          // With FedCM, Google reports no display moment: the prompt was shown once it ends.
          settle({ success: true });
          const reason = moment.getDismissedReason?.();
          if (reason && reason !== 'credential_returned') args.onOneTapCancelled?.(reason);
        }
      });
    });
  }

  return {
    async start(args) {
      check('oauth.googleOneTap.start', args, {
        organization_id: 'string',
        login_redirect_url: 'string?',
        signup_redirect_url: 'string?',
        cancel_on_tap_outside: 'boolean?',
        onOneTapCancelled: 'function?',
        onOneTapError: 'function?',
      });
      return run(args, async (id_token, pkce_code_challenge) => {
        const { redirect_url } = await ctx.api.post<{ redirect_url: string }>(PATHS.oneTapSubmit, {
          id_token,
          organization_id: args.organization_id,
          login_redirect_url: args.login_redirect_url,
          signup_redirect_url: args.signup_redirect_url,
          pkce_code_challenge,
        });
        return redirect_url;
      });
    },
    discovery: {
      async start(args = {}) {
        check('oauth.googleOneTap.discovery.start', args, {
          discovery_redirect_url: 'string?',
          cancel_on_tap_outside: 'boolean?',
          onOneTapCancelled: 'function?',
          onOneTapError: 'function?',
        });
        return run(args, async (id_token, pkce_code_challenge) => {
          const { redirect_url } = await ctx.api.post<{ redirect_url: string }>(
            PATHS.oneTapDiscoverySubmit,
            { id_token, discovery_redirect_url: args.discovery_redirect_url, pkce_code_challenge },
          );
          return redirect_url;
        });
      },
    },
    cancel() {
      identityOf()?.cancel();
    },
  };
}
