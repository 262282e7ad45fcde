/** The expected failures of the organizations product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The slug breaks the slug rule. */
export const invalidSlug = (): Failure =>
  fail('invalid_request', 'organization_slug must be 2 to 128 of a-z, 0-9, and -._~');

/** The organization a token was issued for was deleted. */
export const organizationGone = (): Failure =>
  fail('organization_not_found', 'The organization of this link no longer exists.');

/** No organization of the project has this id. */
export const organizationNotFound = (): Failure =>
  fail('organization_not_found', 'No organization has this id.');

/** Another organization of the project has the slug. */
export const organizationSlugTaken = (): Failure =>
  fail('organization_slug_taken', 'That organization slug is already taken.');

/** An organization's session limit above the project's absolute lifetime, which bounds it. */
export const sessionMaxAboveLifetime = (lifetimeMinutes: number): Failure =>
  fail(
    'invalid_request',
    `session_max_duration_minutes must be at most ${lifetimeMinutes}, the project's session lifetime.`,
  );
