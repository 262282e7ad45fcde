/** The expected failures of the sso product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** A concurrent callback claimed the request first. */
export const alreadyAnswered = (): Failure =>
  fail('invalid_oidc_response', 'This sign-in was answered already.');

/** The assertion ID was accepted before, on any instance. */
export const assertionReplayed = (): Failure =>
  fail('saml_assertion_replayed', 'This assertion has been used already.');

/** The start’s challenge is not a SHA-256 digest. */
export const badPkceChallenge = (): Failure =>
  fail('invalid_request', 'The pkce_code_challenge must be a base64url SHA-256 digest.');

/** The certificate is past its notAfter. */
export const certificateExpired = (): Failure =>
  fail('invalid_certificate', 'The certificate has expired.');

/** The certificate id is not one of the connection’s. */
export const certificateNotFound = (): Failure =>
  fail('certificate_not_found', 'The connection has no certificate with this id.');

/** The connection was deleted while its sign-in was under way. */
export const connectionGone = (): Failure =>
  fail('connection_not_found', 'The connection of this sign-in is gone.');

/** The start named no connection. */
export const connectionIdMissing = (): Failure =>
  fail('invalid_request', 'The connection_id is missing.');

/** The connection's admins have not turned it on (or turned it off): only its test works. */
export const connectionDisabled = (): Failure =>
  fail(
    'sso_connection_disabled',
    'This SSO connection is off: an admin of the organization must turn it on before signing in with it.',
  );

/** The connection is pending. */
export const connectionInactive = (): Failure =>
  fail('sso_connection_inactive', 'This SSO connection is not fully configured yet.');

/** No connection of the project has this id. */
export const connectionNotFound = (): Failure =>
  fail('connection_not_found', 'There is no such SSO connection in this project.');

/** The id names no connection of this organization (nor says whether it exists elsewhere). */
export const connectionNotInOrganization = (): Failure =>
  fail('connection_not_found', 'This organization has no SSO connection with that id.');

/** The connection’s organization was deleted. */
export const connectionOrganizationGone = (): Failure =>
  fail('organization_not_found', 'The organization of this connection is gone.');

/** `email_verified` was not true, and no verified domain of the organization vouched instead. */
export const emailNotVerified = (): Failure =>
  fail('sso_email_not_verified', 'The identity provider has not verified this e-mail address.');

/** An unprompted response to a connection that does not allow them. */
export const idpInitiatedNotAllowed = (): Failure =>
  fail(
    'idp_initiated_sso_not_allowed',
    'This connection accepts only sign-ins started from the app.',
  );

/** Neither the ID token nor userinfo carried an e-mail. */
export const noEmail = (): Failure =>
  fail('invalid_oidc_response', 'The identity provider sent no e-mail.');

/** The token response had no ID token. */
export const noIdToken = (): Failure =>
  fail('invalid_oidc_response', 'The identity provider sent no ID token.');

/** The ACS was posted no response. */
export const noSamlResponse = (): Failure =>
  fail('invalid_saml_response', 'No SAMLResponse was posted.');

/** The text is not an X.509 certificate (PEM or base64 DER). */
export const notACertificate = (): Failure =>
  fail('invalid_certificate', 'The certificate is not an X.509 certificate.');

/** Both or neither metadata sources were given. */
export const oneMetadataSource = (): Failure =>
  fail('invalid_request', 'Give exactly one of metadata_url and metadata_xml.');

/** No organization of the project has this id. */
export const organizationNotInProject = (): Failure =>
  fail('organization_not_found', 'The project has no organization with this id.');

/** The project requires PKCE for SSO. */
export const pkceRequired = (): Failure =>
  fail('pkce_required', 'This project requires a pkce_code_challenge for SSO.');

/** The organization restricts its methods and leaves SSO out. */
export const ssoNotAllowed = (): Failure =>
  fail('auth_method_not_allowed', 'This organization does not allow SSO sign-in.');

/** The sso token is not live. */
export const ssoTokenNotFound = (): Failure =>
  fail('sso_token_not_found', 'The SSO token is unknown, expired or already used.');

/** InResponseTo names no live, unanswered request of this connection. */
export const unknownInResponseTo = (): Failure =>
  fail(
    'invalid_saml_response',
    'The response answers no sign-in that this connection started, or one already answered or expired.',
  );

/** The start’s public token names no project. */
export const unknownPublicToken = (): Failure =>
  fail('unauthorized_credentials', 'The public_token is missing or unknown.');

/** The callback’s state is not one we issued and have not answered. */
export const unknownState = (): Failure =>
  fail(
    'invalid_oidc_response',
    'The state answers no sign-in that was started here, or one already answered or expired.',
  );

/** The IdP's answer came to a browser other than the one that started the sign-in. */
export const otherBrowser = (kind: 'saml' | 'oidc'): Failure =>
  fail(
    kind === 'saml' ? 'invalid_saml_response' : 'invalid_oidc_response',
    'This sign-in was started in another browser. Start again from the app in this browser.',
  );
