/** The messages of failed password calls (docs/widget.md §8), loaded with the password effects. */
import type { ErrorType } from '@gatehouse/protocol';
import type { Format } from '../messages/format.js';
import { apiErrorOf, describeError, NO_ACCESS_ERROR_TYPES } from './errors.js';

/** Error types that mean the e-mail and password do not match a member (docs/protocol.md §3, §7.2). */
const BAD_CREDENTIALS_ERROR_TYPES: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'unauthorized_credentials',
  'member_not_found',
]);

/** The message under the password login form when it failed (docs/widget.md §8). */
export function passwordLoginErrorMessage(error: unknown, format: Format): string {
  const api = apiErrorOf(error);
  if (api && BAD_CREDENTIALS_ERROR_TYPES.has(api.error_type)) {
    return format('passwordAuthenticate.invalid');
  }
  return describeError(error, format).message;
}

/**
 * The message when the login link of a reset for a member without a password (or a newcomer)
 * could not be sent: the access message for e-mails that may not join (docs/widget.md §5), else the
 * "unable to verify" message of docs/widget.md §8.
 */
export function resetLinkErrorMessage(
  error: unknown,
  email: string,
  organizationName: string,
  format: Format,
): string {
  const api = apiErrorOf(error);
  if (api && NO_ACCESS_ERROR_TYPES.has(api.error_type)) {
    return format('email.noAccess', { email, organizationName });
  }
  return format('password.nonMemberResetFailed');
}
