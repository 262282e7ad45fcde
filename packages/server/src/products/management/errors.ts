/** The expected failures of the management product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The chosen default SSO connection is still pending. */
export const defaultConnectionInactive = (): Failure =>
  fail('sso_connection_inactive', 'The default SSO connection must be active.');

/** The default SSO connection named is turned off. */
export const defaultConnectionOff = (): Failure =>
  fail('sso_connection_disabled', 'The default SSO connection must be on: turn it on first.');

/** The organization already has this address. */
export const memberEmailTaken = (): Failure =>
  fail('invalid_request', 'The organization already has a member with this e-mail address.');
