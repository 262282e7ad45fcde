/** Password calls (docs/protocol.md §7.2) with the `passwords` PKCE pair and docs/widget.md §5 argument checks. */
import { PATHS, type Ack, type AuthResult, type FullSessionResult } from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { withIst } from './ist.js';
import { createPasswordDiscoveryMethods } from './password-discovery.js';
import type { GatehouseClient, PasswordResetStartResult, PasswordStrengthResult } from './types.js';
import { check } from './validate.js';

export function createPasswordMethods(ctx: ClientContext): GatehouseClient['passwords'] {
  return {
    async authenticate(args) {
      check('passwords.authenticate', args, {
        organization_id: 'string',
        email_address: 'string',
        password: 'string',
        session_duration_minutes: 'number',
        locale: 'string?',
      });
      return ctx.applied(
        await ctx.post<AuthResult>(
          PATHS.passwordsAuthenticate,
          withIst(ctx, { ...args, code_verifier: ctx.pkce.get('passwords')?.code_verifier }),
        ),
      );
    },

    async resetByEmailStart(args) {
      check('passwords.resetByEmailStart', args, {
        organization_id: 'string',
        email_address: 'string',
        login_redirect_url: 'string?',
        reset_password_redirect_url: 'string?',
        reset_password_expiration_minutes: 'number?',
        reset_password_template_id: 'string?',
        locale: 'string?',
      });
      const config = await ctx.bootstrap.ready;
      // Resends reuse the stored pair, so any of the e-mails sent can complete the reset.
      const code_challenge = config.pkceRequiredForPasswordResets
        ? (await ctx.pkce.getOrCreate('passwords')).code_challenge
        : undefined;
      return ctx.post<PasswordResetStartResult>(PATHS.passwordsResetStart, {
        ...args,
        code_challenge,
      });
    },

    async checkResetToken(args) {
      check('passwords.checkResetToken', args, { password_reset_token: 'string' });
      return ctx.post<Ack>(PATHS.passwordsResetCheck, {
        ...args,
        code_verifier: ctx.pkce.get('passwords')?.code_verifier,
      });
    },

    async resetByEmail(args) {
      check('passwords.resetByEmail', args, {
        password_reset_token: 'string',
        password: 'string',
        session_duration_minutes: 'number',
        locale: 'string?',
      });
      const result = await ctx.post<AuthResult>(
        PATHS.passwordsResetByEmail,
        withIst(ctx, { ...args, code_verifier: ctx.pkce.get('passwords')?.code_verifier }),
      );
      ctx.pkce.clear('passwords');
      return ctx.applied(result);
    },

    async resetByExistingPassword(args) {
      check('passwords.resetByExistingPassword', args, {
        organization_id: 'string',
        email_address: 'string',
        existing_password: 'string',
        new_password: 'string',
        session_duration_minutes: 'number',
        locale: 'string?',
      });
      return ctx.applied(await ctx.post<AuthResult>(PATHS.passwordsResetExisting, args));
    },

    async resetBySession(args) {
      check('passwords.resetBySession', args, { password: 'string', existing_password: 'string?' });
      return ctx.applied(await ctx.post<FullSessionResult>(PATHS.passwordsResetSession, args));
    },

    async strengthCheck(args) {
      check('passwords.strengthCheck', args, { password: 'string', email_address: 'string?' });
      return ctx.post<PasswordStrengthResult>(PATHS.passwordsStrengthCheck, args);
    },

    discovery: createPasswordDiscoveryMethods(ctx),
  };
}
