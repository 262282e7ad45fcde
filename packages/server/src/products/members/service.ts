/** Changing a member's MFA settings: enrollment, phone number, default method. */
import type { Member, MfaMethod } from '@gatehouse/protocol';
import { isoAt, type Db } from '../../context.js';
import type { MembersTable } from '../../store/schema.js';
import { normalizePhoneNumber } from '../otp-sms/phone.js';
import type { Failure } from '../../result.js';
import { memberById, phoneNumberTaken, updateMemberRow } from './store.js';
import { invalidPhoneNumber, memberNotFound } from './errors.js';
import { duplicatePhoneNumber } from '../otp-sms/errors.js';

/** The MFA fields an update may change; absent fields stay as they are. */
export interface MemberMfaPatch {
  name?: string | undefined;
  mfa_enrolled?: boolean | undefined;
  /** Any usual format, stored as E.164; `''` removes the number. */
  mfa_phone_number?: string | undefined;
  mfa_phone_number_verified?: boolean | undefined;
  default_mfa_method?: '' | MfaMethod | undefined;
}

/**
 * Applies a patch to a member of the project. A new phone number is normalized, must not be
 * another member's in the organization, and is unverified unless the patch says otherwise.
 *
 * @example
 * await updateMember(db, project.id, memberId, { mfa_phone_number: '+1 415 555 2671', mfa_phone_number_verified: true }, Date.now());
 */
export async function updateMember(
  db: Db,
  projectId: string,
  memberId: string,
  patch: MemberMfaPatch,
  now: number,
): Promise<Member | Failure> {
  const member = await memberById(db, projectId, memberId);
  if (!member) return memberNotFound();
  const set: Partial<MembersTable> = { updated_at: isoAt(now) };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.mfa_enrolled !== undefined) set.mfa_enrolled = patch.mfa_enrolled ? 1 : 0;
  if (patch.default_mfa_method !== undefined) set.default_mfa_method = patch.default_mfa_method;
  if (patch.mfa_phone_number !== undefined) {
    let phone = '';
    if (patch.mfa_phone_number.trim() !== '') {
      const parsed = normalizePhoneNumber(patch.mfa_phone_number);
      if (!parsed) return invalidPhoneNumber();
      phone = parsed.e164;
    }
    if (phone !== member.mfa_phone_number) {
      const taken = phone !== '' && (await phoneNumberTaken(db, member, phone));
      if (taken) {
        return duplicatePhoneNumber();
      }
      set.mfa_phone_number = phone;
      set.mfa_phone_verified = 0;
    }
  }
  // A verified flag without a number would claim a phone that does not exist.
  const phoneAfter = set.mfa_phone_number ?? member.mfa_phone_number;
  if (patch.mfa_phone_number_verified !== undefined) {
    set.mfa_phone_verified = patch.mfa_phone_number_verified && phoneAfter !== '' ? 1 : 0;
  }
  await updateMemberRow(db, memberId, set);
  return (await memberById(db, projectId, memberId)) ?? memberNotFound();
}
