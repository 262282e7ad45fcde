/** The messages of failed MFA calls (docs/widget.md §8), loaded with the MFA effects. */
import type { ErrorType } from '@gatehouse/protocol';
import type { Format } from '../messages/format.js';
import { apiErrorOf, describeError } from './errors.js';

/** Error types of a code that is wrong, unknown or expired (docs/protocol.md §7.7). */
const WRONG_CODE_ERROR_TYPES: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'unauthorized_credentials',
  'otp_code_not_found',
  'totp_not_found',
]);

/** The message under a passcode that was refused (docs/widget.md §8, SMS or TOTP). */
export function passcodeErrorMessage(error: unknown, format: Format): string {
  const api = apiErrorOf(error);
  if (api && WRONG_CODE_ERROR_TYPES.has(api.error_type)) return format('mfa.invalidPasscode');
  return describeError(error, format).message;
}

/** The message under a backup code that was refused (docs/widget.md §8). */
export function backupCodeErrorMessage(error: unknown, format: Format): string {
  const api = apiErrorOf(error);
  if (api && WRONG_CODE_ERROR_TYPES.has(api.error_type)) return format('mfa.invalidBackupCode');
  return describeError(error, format).message;
}

/** The message under a phone number the server refused (docs/widget.md §8). */
export function phoneErrorMessage(error: unknown, format: Format): string {
  const api = apiErrorOf(error);
  if (api?.error_type === 'duplicate_member_phone_number') return format('phone.duplicate');
  if (api?.error_type === 'invalid_phone_number') return format('phone.invalid');
  return describeError(error, format).message;
}
