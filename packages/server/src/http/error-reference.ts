/**
 * The page every error body's `error_url` points at (`{docs_base}/errors#{error_type}`): each
 * `error_type` with its status and what it means. The record is typed by the closed set, so a new
 * error type does not compile until it is described here.
 */
import { ERROR_STATUS, ERROR_TYPES, type ErrorType } from '@gatehouse/protocol';
import { escapeHtml } from './pages.js';

const MEANINGS: Readonly<Record<ErrorType, string>> = {
  invalid_request:
    'The body or query does not match the endpoint: malformed JSON, a missing field, a wrong type. The `body` list says what.',
  invalid_email: 'The e-mail address is not one the server accepts.',
  invalid_phone_number: 'The phone number cannot be read, or the member has none.',
  duplicate_member_phone_number: 'Another member of the organization has this phone number.',
  weak_password: 'The new password fails the project’s password policy.',
  invalid_redirect_url:
    'A redirect URL is not absolute http(s), or not on the project’s allow-list for its kind; or none was given and the project lists none.',
  pkce_mismatch: 'The PKCE verifier does not match the challenge the token was issued with.',
  pkce_required: 'The project requires PKCE for this flow and no challenge was sent.',
  organization_slug_taken: 'Another organization of the project has this slug.',
  invalid_email_domain:
    'A public mail domain (gmail.com, outlook.com, …) cannot be a domain people join by.',
  invalid_saml_response:
    'The identity provider’s SAML response was refused: signature, issuer, audience, destination, recipient, validity or InResponseTo.',
  saml_assertion_replayed: 'This SAML assertion was accepted before; each is accepted once.',
  invalid_oidc_response:
    'The OpenID provider’s answer was refused: an unknown or used state, a failed code exchange or an ID token that did not verify.',
  invalid_certificate: 'The text is not a valid, unexpired X.509 certificate.',
  invalid_saml_metadata: 'The IdP metadata could not be fetched or read.',
  oidc_discovery_failed: 'The issuer’s discovery document could not be read.',
  sso_connection_inactive: 'The SSO connection is not fully configured yet.',
  oauth_provider_not_configured: 'This OAuth provider is off, or its client is not set up.',
  captcha_required:
    'The project has captcha on and this call carried no `captcha_token`: solve the captcha and send its token.',
  invalid_captcha:
    'The captcha provider refused the `captcha_token`: wrong, expired, already used, for another site, or scored too low.',
  unauthorized_credentials:
    'Bad or unknown credentials: public token, session, password or code; or an MFA call for another member.',
  email_jit_provisioning_not_allowed: 'The organization does not let people join by e-mail.',
  invalid_email_for_jit_provisioning:
    'The address is not at a domain the organization lets people join by.',
  auth_method_not_allowed: 'The organization does not allow this sign-in method.',
  mfa_method_not_allowed: 'The organization does not allow this second factor.',
  primary_auth_required: 'The organization requires another primary sign-in method first.',
  organization_creation_not_allowed: 'The project does not let people create organizations.',
  unauthorized_origin: 'The page’s origin is not one the project trusts.',
  member_locked:
    'Too many wrong codes in a row locked this second factor; an e-mail link sign-in or an administrator unlocks it.',
  sso_jit_provisioning_not_allowed:
    'The person is not a member and the organization does not add members through this SSO connection.',
  idp_initiated_sso_not_allowed: 'The SSO connection accepts only sign-ins started from the app.',
  sso_email_not_verified: 'The identity provider has not verified the e-mail address.',
  oauth_email_not_verified: 'The OAuth provider has not verified the e-mail address.',
  unauthorized_action: 'The member’s roles do not allow this action.',
  session_not_found: 'The session is unknown, expired or revoked.',
  intermediate_session_not_found:
    'The intermediate session token is unknown, expired, used, or not for this member.',
  organization_not_found: 'No organization of the project has this id or slug.',
  member_not_found: 'No such member, or the member was removed.',
  connection_not_found: 'No SSO connection of this organization has this id.',
  certificate_not_found: 'The SSO connection has no certificate with this id.',
  template_not_found: 'No e-mail template has this id.',
  magic_link_not_found: 'The link is unknown, expired or already used.',
  password_reset_token_not_found: 'The reset link is unknown, expired or already used.',
  sso_token_not_found: 'The SSO token is unknown, expired or already used.',
  oauth_token_not_found: 'The OAuth token is unknown, expired or already used.',
  otp_code_not_found: 'No text-message code is pending: it expired, was used, or was never sent.',
  totp_not_found: 'The member has no authenticator app registered.',
  secret_not_found: 'The project has no secret key with this id.',
  endpoint_not_found: 'No endpoint has this method and path.',
  request_timeout:
    'The request did not arrive within the server’s time limit (`REQUEST_TIMEOUT_MS`); the connection is closed.',
  too_many_requests: 'A rate limit was reached; `Retry-After` says when to try again.',
  internal_server_error: 'Something failed on the server; trying again may work.',
  sms_delivery_failed: 'The text message could not be sent; trying again later may work.',
  captcha_unavailable:
    'The captcha provider did not answer in time to check the token; trying again later may work.',
};

/** The page, built once: it only changes with the server. */
export function errorReferencePage(): string {
  const rows = ERROR_TYPES.map(
    (type) =>
      `<tr id="${type}"><td><code>${type}</code></td><td>${ERROR_STATUS[type]}</td><td>${escapeHtml(MEANINGS[type]).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse error types</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:.4rem;text-align:left;vertical-align:top}tr:target{background:#fff8c5}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}</style>
</head>
<body>
<main>
<h1>Error types</h1>
<p>Every error answer carries one of these <code>error_type</code> values, always with the same HTTP status.</p>
<table>
<thead><tr><th>error_type</th><th>Status</th><th>Meaning</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>
`;
}
