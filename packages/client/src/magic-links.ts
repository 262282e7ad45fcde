/** E-mail magic links (docs/protocol.md §7.1): sends with PKCE challenges, authenticates with verifiers. */
import {
  PATHS,
  type Ack,
  type DiscoveryResult,
  type MagicLinkAuthenticateResult,
  type PkceNamespace,
} from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { GatehouseAPIError } from './errors.js';
import { withIst } from './ist.js';
import type { GatehouseClient } from './types.js';
import { check } from './validate.js';

/** The magic-link challenge when the project requires PKCE for e-mail links; sends reuse it. */
async function magicLinkChallenge(ctx: ClientContext): Promise<string | undefined> {
  const config = await ctx.bootstrap.ready;
  if (!config.pkceRequiredForEmailMagicLinks) return undefined;
  return (await ctx.pkce.getOrCreate('magic_links')).code_challenge;
}

export function createMagicLinkMethods(ctx: ClientContext): GatehouseClient['magicLinks'] {
  return {
    email: {
      async loginOrSignup(args) {
        check('magicLinks.email.loginOrSignup', args, {
          email_address: 'string',
          organization_id: 'string',
          login_redirect_url: 'string?',
          signup_redirect_url: 'string?',
          login_template_id: 'string?',
          signup_template_id: 'string?',
          locale: 'string?',
        });
        const pkce_code_challenge = await magicLinkChallenge(ctx);
        return ctx.post<Ack>(PATHS.magicLinksLoginOrSignup, { ...args, pkce_code_challenge });
      },
      discovery: {
        async send(args) {
          check('magicLinks.email.discovery.send', args, {
            email_address: 'string',
            discovery_redirect_url: 'string?',
            login_template_id: 'string?',
            locale: 'string?',
          });
          const pkce_code_challenge = await magicLinkChallenge(ctx);
          return ctx.post<Ack>(PATHS.magicLinksDiscoverySend, { ...args, pkce_code_challenge });
        },
      },
    },

    async authenticate(args) {
      check('magicLinks.authenticate', args, {
        magic_links_token: 'string',
        session_duration_minutes: 'number',
        locale: 'string?',
      });
      const body = withIst(ctx, args);
      const send = (verifier: string | undefined) =>
        ctx.post<MagicLinkAuthenticateResult>(PATHS.magicLinksAuthenticate, {
          ...body,
          pkce_code_verifier: verifier,
        });
      // A password reset for a member without a password arrives as a magic link issued with
      // the `passwords` challenge, so that verifier goes first; a PKCE failure leaves the token
      // unconsumed, which allows one retry with the magic-link verifier (docs/protocol.md §10).
      const passwordsPair = ctx.pkce.get('passwords');
      const magicLinksPair = ctx.pkce.get('magic_links');
      let used: PkceNamespace = passwordsPair ? 'passwords' : 'magic_links';
      let result: MagicLinkAuthenticateResult;
      try {
        result = await send((passwordsPair ?? magicLinksPair)?.code_verifier);
      } catch (error) {
        const pkceFailure =
          error instanceof GatehouseAPIError && error.error_message.toLowerCase().includes('pkce');
        if (!(passwordsPair && magicLinksPair && pkceFailure)) throw error;
        used = 'magic_links';
        result = await send(magicLinksPair.code_verifier);
      }
      ctx.pkce.clear(used);
      return ctx.applied(result);
    },

    discovery: {
      async authenticate(args) {
        check('magicLinks.discovery.authenticate', args, {
          discovery_magic_links_token: 'string',
        });
        const result = await ctx.post<DiscoveryResult>(PATHS.magicLinksDiscoveryAuthenticate, {
          ...args,
          pkce_code_verifier: ctx.pkce.get('magic_links')?.code_verifier,
        });
        ctx.pkce.clear('magic_links');
        return ctx.applied(result);
      },
    },
  };
}
