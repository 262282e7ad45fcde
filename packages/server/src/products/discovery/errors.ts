/** The expected failures of the discovery product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The discovery link is not live. */
export const discoveryLinkNotFound = (): Failure =>
  fail('magic_link_not_found', 'The discovery link is unknown, expired or already used.');

/** An MFA-bound IST may not create an organization. */
export const istAwaitingSecondFactor = (): Failure =>
  fail(
    'intermediate_session_not_found',
    'This intermediate session is waiting for a second factor and cannot create an organization.',
  );

/** An MFA-bound IST serves only its own member. */
export const istOfAnotherMember = (): Failure =>
  fail('intermediate_session_not_found', 'This intermediate session belongs to another member.');

/** A concurrent sign-up took the address while creating the organization. */
export const memberNotCreated = (): Failure =>
  fail('invalid_request', 'The member could not be created.');

/** The project turned organization creation off. */
export const organizationCreationNotAllowed = (): Failure =>
  fail('organization_creation_not_allowed', 'This project does not allow creating organizations.');

/** The identity’s primary factors are not ones the organization allows. */
export const primaryAuthRequired = (): Failure =>
  fail(
    'primary_auth_required',
    'This organization requires another primary authentication method.',
  );
