/** The expected failures of the passwords product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** Both or neither of `password` and `password_hash`. */
export const passwordAndHash = (): Failure =>
  fail('invalid_request', 'Give either a password or a password hash, not both.');

/** The organization restricts its methods and leaves passwords out. */
export const passwordsNotAllowed = (): Failure =>
  fail('auth_method_not_allowed', 'This organization does not allow passwords.');

/** The project requires PKCE for password resets. */
export const pkceRequired = (): Failure =>
  fail('pkce_required', 'This project requires a code_challenge for password resets.');

/** An imported hash in no format we can verify. */
export const unsupportedHash = (): Failure =>
  fail(
    'invalid_request',
    'The password hash is not in a supported format (argon2, bcrypt, scrypt, pbkdf2_sha256).',
  );

/** The password is right, but the project required it be reset first. */
export const resetRequired = (): Failure =>
  fail(
    'reset_password',
    'This password must be reset before it can sign in again: ask for a password reset link by e-mail.',
  );
