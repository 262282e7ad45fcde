/** The expected failures of the magic-links product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The link is not live. */
export const magicLinkNotFound = (): Failure =>
  fail('magic_link_not_found', 'The magic link is unknown, expired or already used.');

/** A concurrent sign-up created the member and then lost it. */
export const magicLinkUnusable = (): Failure =>
  fail('magic_link_not_found', 'The magic link could not be used.');

/** The organization restricts its methods and leaves e-mail links out. */
export const magicLinksNotAllowed = (): Failure =>
  fail('auth_method_not_allowed', 'This organization does not allow e-mail magic links.');

/** The project requires PKCE for e-mail links. */
export const pkceRequired = (): Failure =>
  fail('pkce_required', 'This project requires a pkce_code_challenge for e-mail magic links.');

/** The member was not invited, or their invitation was accepted or revoked. */
export const invitationNotFound = (): Failure =>
  fail(
    'invitation_not_found',
    'This member has no pending invitation: it was accepted or revoked, or they joined without one.',
  );
