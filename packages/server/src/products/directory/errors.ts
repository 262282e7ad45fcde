/** The expected failures of the directory, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** A cursor this server did not issue for this search. */
export const invalidCursor = (): Failure =>
  fail(
    'invalid_request',
    'cursor is not a next_cursor of this search: send the same query with the next_cursor of the previous page, or no cursor for the first page.',
  );

/** No member of the organization has a password with this id. */
export const passwordNotFound = (): Failure =>
  fail('member_not_found', 'No member of this organization has a password with this id.');

/** The member has no authenticator app to remove. */
export const noTotp = (): Failure =>
  fail('totp_not_found', 'The member has no authenticator app registered.');
