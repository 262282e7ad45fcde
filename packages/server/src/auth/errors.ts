/** The expected failures of the sign-in core, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../result.js';

/** The IST sent is not live. */
export const intermediateSessionNotFound = (): Failure =>
  fail('intermediate_session_not_found', 'The intermediate session is unknown, expired or used.');

/** The member of an IST or session was deleted meanwhile. */
export const memberGone = (): Failure => fail('member_not_found', 'This member no longer exists.');

/** An `I` call came with neither an IST nor a session. */
export const needsIstOrSession = (): Failure =>
  fail('unauthorized_credentials', 'This call needs an intermediate session token or a session.');

/** A new factor may not be registered on the strength of an IST alone. */
export const secondFactorFirst = (): Failure =>
  fail(
    'unauthorized_credentials',
    'This member already has a second factor: authenticate with it before adding another.',
  );

/** The session presented is dead or absent. */
export const sessionNotFound = (): Failure =>
  fail('session_not_found', 'The session is unknown, expired or revoked.');

/** An exchange would continue a session that started longer ago than the organization allows. */
export const sessionTooOldToEnter = (): Failure =>
  fail(
    'primary_auth_required',
    'This organization limits how long a session lives, and this session started earlier: sign in to it again.',
  );
