/** The expected failures of the otp-sms product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** Duplicate member phone number. */
export const duplicatePhoneNumber = (): Failure =>
  fail(
    'duplicate_member_phone_number',
    'A member with the specified phone number already exists for this organization.',
  );

/** No number was given and the member has none. */
export const noPhoneNumber = (): Failure =>
  fail('invalid_phone_number', 'This member has no phone number: give mfa_phone_number.');

/** No live code for the member. */
export const otpCodeNotFound = (): Failure =>
  fail('otp_code_not_found', 'No code is pending: it expired or was used.');

/** Unauthorized credentials. */
export const wrongSmsCode = (): Failure =>
  fail('unauthorized_credentials', 'The code is not correct.');
