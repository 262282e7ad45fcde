/** The expected failures of the totp product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The member has no registration, pending or verified. */
export const totpNotFound = (): Failure =>
  fail('totp_not_found', 'This member has no authenticator app registered.');

/** The code matches no time step of the member’s registrations. */
export const wrongTotpCode = (): Failure =>
  fail('unauthorized_credentials', 'The code is not correct.');
