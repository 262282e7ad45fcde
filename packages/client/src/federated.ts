/** SSO and OAuth (docs/protocol.md §7.6, §8): start navigations with fresh PKCE pairs, and completions. */
import {
  PATHS,
  type AuthResult,
  type DiscoveryResult,
  type PkceNamespace,
} from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { withIst } from './ist.js';
import { GatehouseUsageError } from './errors.js';
import type {
  GatehouseClient,
  OAuthAuthenticateResult,
  OAuthDiscoveryStartArgs,
  OAuthProvider,
  OAuthProviderMethods,
  OAuthStartArgs,
} from './types.js';
import { check } from './validate.js';
import { createGoogleOneTap } from './one-tap.js';

type FederatedMethods = Pick<GatehouseClient, 'sso' | 'oauth'>;

const OAUTH_ARGS = { custom_scopes: 'string[]?', provider_params: 'record?' } as const;

export function createFederatedMethods(
  ctx: ClientContext,
  oneTapScriptUrl: string,
): FederatedMethods {
  /**
   * Starts always use a new pair, so a stale verifier from an abandoned attempt never meets a
   * new token; without the flag the pair is cleared instead.
   */
  const challenge = async (namespace: PkceNamespace, required: boolean) => {
    if (!required) {
      ctx.pkce.clear(namespace);
      return undefined;
    }
    return (await ctx.pkce.create(namespace)).code_challenge;
  };

  /** The OAuth base: the CNAME domain when bootstrap sets one, else the API base. */
  const oauthBase = async () => {
    const { cnameDomain } = await ctx.bootstrap.ready;
    return cnameDomain ? `https://${cnameDomain}` : ctx.endpoints.apiURL;
  };

  const providerParams = (query: URLSearchParams, args: OAuthDiscoveryStartArgs) => {
    if (args.custom_scopes) query.append('custom_scopes', args.custom_scopes.join(' '));
    for (const [key, value] of Object.entries(args.provider_params ?? {})) {
      query.append(`provider_${key}`, value);
    }
  };

  const provider = (name: OAuthProvider): OAuthProviderMethods => ({
    async start(args: OAuthStartArgs) {
      check(`oauth.${name}.start`, args, {
        organization_id: 'string?',
        slug: 'string?',
        login_redirect_url: 'string?',
        signup_redirect_url: 'string?',
        ...OAUTH_ARGS,
      });
      if (args.organization_id === undefined && args.slug === undefined) {
        throw new GatehouseUsageError(`oauth.${name}.start: organization_id or slug is required.`);
      }
      const config = await ctx.bootstrap.ready;
      // Parameter order is part of the contract (docs/protocol.md §8).
      const query = new URLSearchParams({ public_token: ctx.publicToken });
      if (args.organization_id !== undefined) query.append('organization_id', args.organization_id);
      else if (args.slug !== undefined) query.append('slug', args.slug);
      providerParams(query, args);
      const code = await challenge('oauth', config.pkceRequiredForOAuth);
      if (code) query.append('pkce_code_challenge', code);
      if (args.login_redirect_url) query.append('login_redirect_url', args.login_redirect_url);
      if (args.signup_redirect_url) query.append('signup_redirect_url', args.signup_redirect_url);
      ctx.navigate(`${await oauthBase()}/v1/b2b/public/oauth/${name}/start?${query.toString()}`);
    },
    discovery: {
      async start(args: OAuthDiscoveryStartArgs = {}) {
        check(`oauth.${name}.discovery.start`, args, {
          discovery_redirect_url: 'string?',
          ...OAUTH_ARGS,
        });
        const config = await ctx.bootstrap.ready;
        const query = new URLSearchParams({ public_token: ctx.publicToken });
        providerParams(query, args);
        const code = await challenge('oauth', config.pkceRequiredForOAuth);
        if (code) query.append('pkce_code_challenge', code);
        if (args.discovery_redirect_url) {
          query.append('discovery_redirect_url', args.discovery_redirect_url);
        }
        const base = await oauthBase();
        ctx.navigate(`${base}/v1/b2b/public/oauth/${name}/discovery/start?${query.toString()}`);
      },
    },
  });

  return {
    sso: {
      async start(args) {
        check('sso.start', args, {
          connection_id: 'string',
          login_redirect_url: 'string?',
          signup_redirect_url: 'string?',
        });
        const config = await ctx.bootstrap.ready;
        const query = new URLSearchParams({
          public_token: ctx.publicToken,
          connection_id: args.connection_id,
        });
        const code = await challenge('sso', config.pkceRequiredForSso);
        if (code) query.append('pkce_code_challenge', code);
        if (args.login_redirect_url) query.append('login_redirect_url', args.login_redirect_url);
        if (args.signup_redirect_url) query.append('signup_redirect_url', args.signup_redirect_url);
        ctx.navigate(`${ctx.endpoints.apiURL}/v1/public/sso/start?${query.toString()}`);
      },

      async authenticate(args) {
        check('sso.authenticate', args, {
          sso_token: 'string',
          session_duration_minutes: 'number',
          locale: 'string?',
        });
        const result = await ctx.post<AuthResult>(
          PATHS.ssoAuthenticate,
          withIst(ctx, { ...args, pkce_code_verifier: ctx.pkce.get('sso')?.code_verifier }),
        );
        ctx.pkce.clear('sso');
        return ctx.applied(result);
      },
    },

    oauth: {
      google: provider('google'),
      microsoft: provider('microsoft'),
      googleOneTap: createGoogleOneTap(ctx, oneTapScriptUrl),

      async authenticate(args) {
        check('oauth.authenticate', args, {
          oauth_token: 'string',
          session_duration_minutes: 'number',
          locale: 'string?',
        });
        const result = await ctx.post<OAuthAuthenticateResult>(
          PATHS.oauthAuthenticate,
          withIst(ctx, { ...args, pkce_code_verifier: ctx.pkce.get('oauth')?.code_verifier }),
        );
        ctx.pkce.clear('oauth');
        return ctx.applied(result);
      },

      discovery: {
        async authenticate(args) {
          check('oauth.discovery.authenticate', args, { discovery_oauth_token: 'string' });
          const result = await ctx.post<DiscoveryResult>(PATHS.oauthDiscoveryAuthenticate, {
            ...args,
            pkce_code_verifier: ctx.pkce.get('oauth')?.code_verifier,
          });
          ctx.pkce.clear('oauth');
          return ctx.applied(result);
        },
      },
    },
  };
}
