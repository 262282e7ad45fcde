/** The expected failures of the members product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The address fails the shared e-mail rule. */
export const invalidEmail = (): Failure =>
  fail('invalid_email', 'The e-mail address is not valid.');

/** The number cannot be read as a phone number. */
export const invalidPhoneNumber = (): Failure =>
  fail('invalid_phone_number', 'The phone number is not valid.');

/** No member of the project has this id. */
export const memberNotFound = (): Failure => fail('member_not_found', 'No member has this id.');

/** The member was deleted from the organization. */
export const memberRemoved = (): Failure =>
  fail('member_not_found', 'This member has been removed.');
