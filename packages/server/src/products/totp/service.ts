/** TOTP authenticator apps as a second factor (§7.7): registration with recovery codes, and code checks. */
import {
  TOTP_PENDING_MINUTES,
  type AuthenticationFactor,
  type MfaEnrollmentChange,
} from '@gatehouse/protocol';
import { isoAt, type Context } from '../../context.js';
import { newId } from '../../crypto/random.js';
import { generateTotpSecret, totpQrCodeDataUrl, totpUri, verifyTotp } from '../../crypto/totp.js';
import { factorPassed, reserveFactorAttempt } from '../../auth/factor-lockout.js';
import { storeNewRecoveryCodes } from '../recovery-codes/service.js';
import { fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import type { FullSession } from '../../auth/complete.js';
import { allowsMfaMethod, hasSecondFactor } from '../../auth/mfa-policy.js';
import { completePassedFactor } from '../../auth/passed-factor.js';
import { mayRegisterFactor, registrationRefused, type MfaCaller } from '../../auth/secondary.js';
import {
  candidateRegistrations,
  deleteUnconfirmedRegistrations,
  insertRegistration,
  useStep,
} from './store.js';
import type { TotpRegistrationsTable } from '../../store/schema.js';
import { totpNotFound, wrongTotpCode } from './errors.js';

const NOT_ALLOWED = 'This organization does not allow authenticator apps as a second factor.';

/** The factor a passed TOTP code proves. */
export function totpFactor(totpId: string, now: number): AuthenticationFactor {
  return {
    type: 'totp',
    delivery_method: 'authenticator_app',
    last_authenticated_at: isoAt(now),
    sequence_order: 'SECONDARY',
    authenticator_app_factor: { totp_id: totpId },
  };
}

/** A new TOTP registration, as `POST /b2b/totp` answers it. */
export interface TotpCreated {
  totp_id: string;
  secret: string;
  qr_code: string;
  recovery_codes: string[];
}

/**
 * Starts a TOTP registration: a new secret (sealed at rest), its QR code as a PNG data URL and
 * ten recovery codes. An earlier unconfirmed registration of the member is dropped. The new one
 * stays pending for `expirationMinutes` (default 60) until a code from it is authenticated.
 */
export async function createTotp(
  ctx: Context,
  caller: MfaCaller,
  expirationMinutes: number | undefined,
): Promise<TotpCreated | Failure> {
  const { member, project } = caller;
  if (!allowsMfaMethod(caller.organization, 'totp')) {
    return fail('mfa_method_not_allowed', NOT_ALLOWED);
  }
  if (!mayRegisterFactor(caller, hasSecondFactor(member))) return registrationRefused();
  const secret = generateTotpSecret();
  const totpId = newId('member-totp', project.environment);
  const now = ctx.now();
  const recoveryCodes = await transaction(ctx.db, async (trx) => {
    // One enrollment at a time: a new registration replaces any earlier unconfirmed one.
    await deleteUnconfirmedRegistrations(trx, member.member_id);
    await insertRegistration(trx, {
      id: totpId,
      project_id: project.id,
      member_id: member.member_id,
      secret_encrypted: ctx.box.seal(secret),
      last_used_step: null,
      verified_at: null,
      created_at: isoAt(now),
      expires_at: isoAt(now + (expirationMinutes ?? TOTP_PENDING_MINUTES) * 60_000),
    });
    return storeNewRecoveryCodes(ctx, trx, project, member.member_id, totpId);
  });
  const uri = totpUri({ secret, issuer: project.name, account: member.email_address });
  return {
    totp_id: totpId,
    secret,
    qr_code: await totpQrCodeDataUrl(uri),
    recovery_codes: recoveryCodes,
  };
}

/** Input of {@link authenticateTotp}. */
export interface TotpAuthenticateInput {
  code: string;
  set_mfa_enrollment?: MfaEnrollmentChange | undefined;
  set_default_mfa?: boolean | undefined;
  session_duration_minutes?: number | undefined;
}

/**
 * Checks a code (RFC 6238, 30 s steps, one step either way) and grants result F. Each code works
 * once: the step is stored by a conditional update, so a replay, even a concurrent one, fails.
 * The first success of a pending registration makes it the member's `totp_registration_id`.
 * Wrong codes in a row lock TOTP and recovery codes (403 `member_locked`, see factor-lockout).
 */
export async function authenticateTotp(
  ctx: Context,
  caller: MfaCaller,
  input: TotpAuthenticateInput,
  defaultDurationMinutes: number,
): Promise<FullSession | Failure> {
  if (!allowsMfaMethod(caller.organization, 'totp')) {
    return fail('mfa_method_not_allowed', NOT_ALLOWED);
  }
  const memberId = caller.member.member_id;
  // Not allOrNothing: a wrong code must still commit the attempt it counted toward the lock.
  return transaction(ctx.db, async (trx) => {
    const now = ctx.now();
    const candidates = await candidateRegistrations(
      trx,
      memberId,
      caller.member.totp_registration_id,
      now,
    );
    if (candidates.length === 0) {
      return totpNotFound();
    }
    // Counted before the check and across every window: a bounded number of guesses in a row.
    const locked = await reserveFactorAttempt(ctx, trx, caller.project.id, memberId, 'totp');
    if (locked) return locked;
    let matched: TotpRegistrationsTable | null = null;
    for (const registration of candidates) {
      const { valid, step } = verifyTotp({
        secret: ctx.box.open(registration.secret_encrypted),
        code: input.code,
        now,
        lastUsedStep: registration.last_used_step,
      });
      if (!valid || step === null) continue;
      if (await useStep(trx, registration, step, now)) matched = registration;
      break;
    }
    if (!matched) return wrongTotpCode();
    await factorPassed(trx, memberId, 'totp');
    return completePassedFactor(
      ctx,
      trx,
      caller,
      {
        factor: totpFactor(matched.id, now),
        memberColumns: {
          totp_registration_id: matched.id,
          ...(input.set_default_mfa ? { default_mfa_method: 'totp' } : {}),
        },
        setMfaEnrollment: input.set_mfa_enrollment,
        durationMinutes: input.session_duration_minutes,
      },
      defaultDurationMinutes,
      now,
    );
  });
}
