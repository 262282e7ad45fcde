/** MFA calls (docs/protocol.md §7.7): SMS codes, TOTP and recovery codes, each carrying the IST. */
import { PATHS, type Ack, type FullSessionResult } from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { withIst } from './ist.js';
import type {
  GatehouseClient,
  RecoveryCodesRecoverResult,
  RecoveryCodesResult,
  TotpCreateResult,
} from './types.js';
import { check } from './validate.js';

type MfaMethods = Pick<GatehouseClient, 'otps' | 'totp' | 'recoveryCodes'>;

export function createMfaMethods(ctx: ClientContext): MfaMethods {
  return {
    otps: {
      sms: {
        async send(args) {
          check('otps.sms.send', args, {
            organization_id: 'string',
            member_id: 'string',
            mfa_phone_number: 'string?',
            locale: 'string?',
          });
          return ctx.post<Ack>(PATHS.smsSend, withIst(ctx, args));
        },
        async authenticate(args) {
          check('otps.sms.authenticate', args, {
            organization_id: 'string',
            member_id: 'string',
            code: 'string',
            set_mfa_enrollment: 'string?',
            session_duration_minutes: 'number?',
          });
          return ctx.applied(
            await ctx.post<FullSessionResult>(PATHS.smsAuthenticate, withIst(ctx, args)),
          );
        },
      },
    },

    totp: {
      async create(args) {
        check('totp.create', args, {
          organization_id: 'string',
          member_id: 'string',
          expiration_minutes: 'number?',
        });
        return ctx.post<TotpCreateResult>(PATHS.totpCreate, withIst(ctx, args));
      },
      async authenticate(args) {
        check('totp.authenticate', args, {
          organization_id: 'string',
          member_id: 'string',
          code: 'string',
          set_mfa_enrollment: 'string?',
          set_default_mfa: 'boolean?',
          session_duration_minutes: 'number?',
        });
        return ctx.applied(
          await ctx.post<FullSessionResult>(PATHS.totpAuthenticate, withIst(ctx, args)),
        );
      },
    },

    recoveryCodes: {
      async recover(args) {
        check('recoveryCodes.recover', args, {
          organization_id: 'string',
          member_id: 'string',
          recovery_code: 'string',
          session_duration_minutes: 'number?',
        });
        return ctx.applied(
          await ctx.post<RecoveryCodesRecoverResult>(
            PATHS.recoveryCodesRecover,
            withIst(ctx, args),
          ),
        );
      },
      rotate: async () => ctx.post<RecoveryCodesResult>(PATHS.recoveryCodesRotate, {}),
      get: async () => ctx.get<RecoveryCodesResult>(PATHS.recoveryCodesGet),
    },
  };
}
