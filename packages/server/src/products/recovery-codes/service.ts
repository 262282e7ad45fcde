/** Recovery (backup) codes of a TOTP registration (§7.7): stored hashed and sealed, each used once. */
import type { AuthenticationFactor } from '@gatehouse/protocol';
import { randomUUID } from 'node:crypto';
import { isoAt, type Context, type Db } from '../../context.js';
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchRecoveryCode,
} from '../../crypto/recovery-codes.js';
import { factorPassed, reserveFactorAttempt } from '../../auth/factor-lockout.js';
import { memberById } from '../../tenancy/members/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import type { FullSession, PresentedSession } from '../../auth/complete.js';
import {
  deleteRecoveryCodes,
  insertRecoveryCodes,
  lockCodesOwner,
  unusedCodes,
  useRecoveryCode,
} from './store.js';
import { completeSecondFactor, type MfaCaller } from '../../auth/secondary.js';
import { sessionNotFound } from '../../auth/errors.js';
import { memberNotFound } from '../../tenancy/members/errors.js';
import { wrongRecoveryCode } from './errors.js';

const NO_TOTP = 'This member has no authenticator app, so no recovery codes.';

/** The factor a used recovery code proves. */
export function recoveryCodeFactor(codeId: string, now: number): AuthenticationFactor {
  return {
    type: 'recovery_code',
    delivery_method: 'recovery_code',
    last_authenticated_at: isoAt(now),
    sequence_order: 'SECONDARY',
    recovery_code_factor: { totp_recovery_code_id: codeId },
  };
}

/**
 * Makes a fresh set of codes for a TOTP registration and stores them: a hash to match against
 * and a sealed copy to show again. Returns the codes in clear, for the member to save.
 */
export async function storeNewRecoveryCodes(
  ctx: Context,
  db: Db,
  project: Project,
  memberId: string,
  registrationId: string,
): Promise<string[]> {
  const codes = generateRecoveryCodes();
  const at = isoAt(ctx.now());
  await insertRecoveryCodes(
    db,
    codes.map((code, index) => ({
      // The position leads the random part so the codes list back in the order they were shown.
      id: `recovery-code-${project.environment}-${String(index).padStart(2, '0')}-${randomUUID()}`,
      project_id: project.id,
      member_id: memberId,
      totp_registration_id: registrationId,
      code_hash: hashRecoveryCode(code),
      code_encrypted: ctx.box.seal(code),
      used_at: null,
      created_at: at,
    })),
  );
  return codes;
}

/** Input of {@link recoverWithCode}. */
export interface RecoverInput {
  recovery_code: string;
  session_duration_minutes?: number | undefined;
}

/**
 * Passes MFA with a recovery code of the member's TOTP registration: result F plus how many codes
 * remain. Each code works once (consumed by a conditional update in the same transaction).
 * Wrong codes count toward the TOTP lock (403 `member_locked`, see factor-lockout).
 */
export async function recoverWithCode(
  ctx: Context,
  caller: MfaCaller,
  input: RecoverInput,
  defaultDurationMinutes: number,
): Promise<(FullSession & { recovery_codes_remaining: number }) | Failure> {
  const { member } = caller;
  if (member.totp_registration_id === '') return fail('totp_not_found', NO_TOTP);
  // Not allOrNothing: a wrong code must still commit the attempt it counted toward the lock.
  return transaction(ctx.db, async (trx) => {
    const now = ctx.now();
    // Shares the TOTP count: a way past the same second factor must not dodge its lock.
    const locked = await reserveFactorAttempt(
      ctx,
      trx,
      caller.project.id,
      member.member_id,
      'totp',
    );
    if (locked) return locked;
    const rows = await unusedCodes(trx, member.member_id, member.totp_registration_id);
    const index = matchRecoveryCode(
      input.recovery_code,
      rows.map((r) => r.code_hash),
    );
    const row = rows[index];
    const wrong = wrongRecoveryCode();
    if (!row) return wrong;
    if (!(await useRecoveryCode(trx, row.id, now))) return wrong;
    await factorPassed(trx, member.member_id, 'totp');
    const outcome = await completeSecondFactor(
      ctx,
      trx,
      caller,
      member,
      recoveryCodeFactor(row.id, now),
      input.session_duration_minutes,
      defaultDurationMinutes,
    );
    if ('failure' in outcome) return outcome;
    return { ...outcome, recovery_codes_remaining: rows.length - 1 };
  });
}

/**
 * The member, when they have a verified TOTP registration: the signed-in member of a session
 * (`session_not_found` when gone), or a member a host backend named (`member_not_found`).
 */
async function totpMember(ctx: Context, db: Db, project: Project, owner: CodesOwner) {
  const memberId = 'row' in owner ? owner.row.member_id : owner.member_id;
  const member = await memberById(db, project.id, memberId);
  if (!member || member.status === 'deleted') {
    return 'row' in owner ? sessionNotFound() : memberNotFound();
  }
  return member.totp_registration_id === '' ? fail('totp_not_found', NO_TOTP) : member;
}

/** Whose codes: the signed-in member of a session, or a member a host backend named. */
export type CodesOwner = PresentedSession | { member_id: string };

/** Replaces the member's recovery codes with ten new ones. */
export async function rotateRecoveryCodes(
  ctx: Context,
  project: Project,
  owner: CodesOwner,
): Promise<{ recovery_codes: string[] } | Failure> {
  const memberId = 'row' in owner ? owner.row.member_id : owner.member_id;
  return allOrNothing(ctx.db, async (trx) => {
    // First, so a concurrent rotation waits here and then deletes the codes this one stores.
    await lockCodesOwner(trx, memberId);
    const member = await totpMember(ctx, trx, project, owner);
    if ('failure' in member) return member;
    await deleteRecoveryCodes(trx, member.member_id, member.totp_registration_id);
    return {
      recovery_codes: await storeNewRecoveryCodes(
        ctx,
        trx,
        project,
        member.member_id,
        member.totp_registration_id,
      ),
    };
  });
}

/** The member's unused recovery codes, in clear. */
export async function listRecoveryCodes(
  ctx: Context,
  project: Project,
  owner: CodesOwner,
): Promise<{ recovery_codes: string[] } | Failure> {
  const member = await totpMember(ctx, ctx.db, project, owner);
  if ('failure' in member) return member;
  const rows = await unusedCodes(ctx.db, member.member_id, member.totp_registration_id);
  return {
    recovery_codes: rows
      .filter((r) => r.code_encrypted !== '')
      .map((r) => ctx.box.open(r.code_encrypted)),
  };
}
