/**
 * Password reset in discovery (docs/protocol.md §7.2): a reset link for an address rather than
 * one organization's member, redeemed into an intermediate session, with the `passwords` PKCE
 * pair as the organization's resets use it.
 */
import { PATHS, type Ack, type DiscoveryResult } from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { withIst } from './ist.js';
import type { GatehouseClient } from './types.js';
import { check } from './validate.js';

export function createPasswordDiscoveryMethods(
  ctx: ClientContext,
): GatehouseClient['passwords']['discovery'] {
  return {
    async resetByEmailStart(args) {
      check('passwords.discovery.resetByEmailStart', args, {
        email_address: 'string',
        discovery_redirect_url: 'string?',
        reset_password_redirect_url: 'string?',
        reset_password_expiration_minutes: 'number?',
        reset_password_template_id: 'string?',
        verify_email_template_id: 'string?',
        locale: 'string?',
      });
      const config = await ctx.bootstrap.ready;
      // Resends reuse the stored pair, so any of the e-mails sent can complete the reset.
      const pkce_code_challenge = config.pkceRequiredForPasswordResets
        ? (await ctx.pkce.getOrCreate('passwords')).code_challenge
        : undefined;
      return ctx.post<Ack>(PATHS.passwordsDiscoveryResetStart, { ...args, pkce_code_challenge });
    },

    async resetByEmail(args) {
      check('passwords.discovery.resetByEmail', args, {
        password_reset_token: 'string',
        password: 'string',
      });
      const result = await ctx.post<DiscoveryResult>(
        PATHS.passwordsDiscoveryReset,
        withIst(ctx, { ...args, pkce_code_verifier: ctx.pkce.get('passwords')?.code_verifier }),
      );
      ctx.pkce.clear('passwords');
      // Result DR: member state and session tokens are cleared, the new IST kept (§11).
      return ctx.applied(result);
    },
  };
}
