/** The expected failures of the oauth product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The provider is off, or its client is not set up, for this project. */
export const providerNotConfigured = (): Failure =>
  fail('oauth_provider_not_configured', 'This sign-in method is not set up for this project.');

/** Neither `organization_id` nor `slug` names an organization of the project. */
export const organizationMissing = (): Failure =>
  fail('organization_not_found', 'No organization has this id or slug.');

/** The callback's state is not one we issued and have not answered. */
export const unknownState = (): Failure =>
  fail(
    'invalid_oidc_response',
    'The state answers no sign-in that was started here, or one already answered or expired.',
  );

/** The callback came to a browser other than the one that started the sign-in. */
export const otherBrowser = (): Failure =>
  fail(
    'invalid_oidc_response',
    'This sign-in was started in another browser. Start again from the app in this browser.',
  );

/** The ID token or the userinfo carried no e-mail. */
export const noEmail = (): Failure =>
  fail('invalid_oidc_response', 'The provider sent no e-mail address.');

/** The provider has not verified the address (or, for Microsoft, the rule of docs/decisions.md). */
export const emailNotVerified = (): Failure =>
  fail('oauth_email_not_verified', 'The provider has not verified this e-mail address.');

/** The token is not live. */
export const oauthTokenNotFound = (): Failure =>
  fail('oauth_token_not_found', 'The OAuth token is unknown, expired or already used.');

/** The project requires PKCE for OAuth. */
export const pkceRequired = (): Failure =>
  fail('pkce_required', 'This project requires a pkce_code_challenge for OAuth.');
