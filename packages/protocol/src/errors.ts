/**
 * Every `error_type` on the wire, declared once (docs/protocol.md §3): the HTTP status it is
 * always sent with and what it means (the server's error reference page shows both). Which of
 * them end a session is below.
 */

/** One error type: its status and its meaning, in one sentence or two for the reference page. */
export interface ErrorTypeRecord {
  readonly status: number;
  readonly meaning: string;
}

/** The error catalogue, by `error_type`. A new failure is a new entry here, and nowhere else. */
export const ERRORS = {
  // 400
  invalid_request: {
    status: 400,
    meaning:
      'The body or query does not match the endpoint: malformed JSON, a missing field, a wrong type. The `body` list says what.',
  },
  invalid_email: {
    status: 400,
    meaning: 'The e-mail address is not one the server accepts.',
  },
  invalid_phone_number: {
    status: 400,
    meaning: 'The phone number cannot be read, or the member has none.',
  },
  duplicate_member_phone_number: {
    status: 400,
    meaning: 'Another member of the organization has this phone number.',
  },
  member_already_active: {
    status: 400,
    meaning:
      'The address already belongs to an active member of the organization; invitations are for people who have not joined yet.',
  },
  weak_password: {
    status: 400,
    meaning: 'The new password fails the project’s password policy.',
  },
  existing_password_mismatch: {
    status: 400,
    meaning:
      "The current password sent with a signed-in member's password change is not theirs; the session stays signed in.",
  },
  reset_password: {
    status: 400,
    meaning:
      'The password is right, but it must be reset before it signs in again (the project required it, `passwords.email.requireReset`): reset it by e-mail.',
  },
  invalid_redirect_url: {
    status: 400,
    meaning:
      'A redirect URL is not absolute http(s), or not on the project’s allow-list for its kind; or none was given and the project lists none.',
  },
  pkce_mismatch: {
    status: 400,
    meaning: 'The PKCE verifier does not match the challenge the token was issued with.',
  },
  pkce_required: {
    status: 400,
    meaning: 'The project requires PKCE for this flow and no challenge was sent.',
  },
  organization_slug_taken: {
    status: 400,
    meaning: 'Another organization of the project has this slug.',
  },
  invalid_email_domain: {
    status: 400,
    meaning: 'A public mail domain (gmail.com, outlook.com, …) cannot be a domain people join by.',
  },
  invalid_domain: {
    status: 400,
    meaning:
      'The domain is not a host name that can hold a DNS record: labels of letters, digits and dashes, at least two, at most 253 characters.',
  },
  domain_record_missing: {
    status: 400,
    meaning:
      'The domain has no TXT record at `_gatehouse-verification.<domain>` yet (or DNS has not spread it); publish the record shown and verify again.',
  },
  domain_token_mismatch: {
    status: 400,
    meaning:
      'The domain has a TXT record at `_gatehouse-verification.<domain>`, but none of its values is this domain’s token; publish the value shown and verify again.',
  },
  invalid_saml_response: {
    status: 400,
    meaning:
      'The identity provider’s SAML response was refused: signature, issuer, audience, destination, recipient, validity or InResponseTo.',
  },
  saml_assertion_replayed: {
    status: 400,
    meaning: 'This SAML assertion was accepted before; each is accepted once.',
  },
  invalid_oidc_response: {
    status: 400,
    meaning:
      'The OpenID provider’s answer was refused: an unknown or used state, a failed code exchange or an ID token that did not verify.',
  },
  invalid_certificate: {
    status: 400,
    meaning: 'The text is not a valid, unexpired X.509 certificate.',
  },
  invalid_saml_metadata: {
    status: 400,
    meaning: 'The IdP metadata could not be fetched or read.',
  },
  oidc_discovery_failed: {
    status: 400,
    meaning: 'The issuer’s discovery document could not be read.',
  },
  sso_connection_inactive: {
    status: 400,
    meaning: 'The SSO connection is not fully configured yet.',
  },
  sso_connection_disabled: {
    status: 400,
    meaning: 'The SSO connection is off: only its test sign-in works until an admin turns it on.',
  },
  oauth_provider_not_configured: {
    status: 400,
    meaning: 'This OAuth provider is off, or its client is not set up.',
  },
  captcha_required: {
    status: 400,
    meaning:
      'The project has captcha on and this call carried no `captcha_token`: solve the captcha and send its token.',
  },
  invalid_captcha: {
    status: 400,
    meaning:
      'The captcha provider refused the `captcha_token`: wrong, expired, already used, for another site, or scored too low.',
  },
  // 401
  unauthorized_credentials: {
    status: 401,
    meaning:
      'Bad or unknown credentials: public token, session, password or code; or an MFA call for another member.',
  },
  // 403
  email_jit_provisioning_not_allowed: {
    status: 403,
    meaning: 'The organization does not let people join by e-mail.',
  },
  invalid_email_for_jit_provisioning: {
    status: 403,
    meaning: 'The address is not at a domain the organization lets people join by.',
  },
  auth_method_not_allowed: {
    status: 403,
    meaning: 'The organization does not allow this sign-in method.',
  },
  mfa_method_not_allowed: {
    status: 403,
    meaning: 'The organization does not allow this second factor.',
  },
  primary_auth_required: {
    status: 403,
    meaning: 'The organization requires another primary sign-in method first.',
  },
  organization_creation_not_allowed: {
    status: 403,
    meaning: 'The project does not let people create organizations.',
  },
  unauthorized_origin: {
    status: 403,
    meaning: 'The page’s origin is not one the project trusts.',
  },
  member_locked: {
    status: 403,
    meaning:
      'Too many wrong codes in a row locked this second factor; an e-mail link sign-in or an administrator unlocks it.',
  },
  sso_jit_provisioning_not_allowed: {
    status: 403,
    meaning:
      'The person is not a member and the organization does not add members through this SSO connection.',
  },
  idp_initiated_sso_not_allowed: {
    status: 403,
    meaning: 'The SSO connection accepts only sign-ins started from the app.',
  },
  sso_email_not_verified: {
    status: 403,
    meaning: 'The identity provider has not verified the e-mail address.',
  },
  unauthorized_action: {
    status: 403,
    meaning: 'The member’s roles do not allow this action.',
  },
  session_authorization_error: {
    status: 403,
    meaning:
      'The member whose session a management call was made with, or an authorization check is about, may not do this: their roles in that session do not allow it.',
  },
  session_authorization_tenancy_error: {
    status: 403,
    meaning:
      'The member whose session a management call was made with, or an authorization check is about, belongs to another organization than the one named.',
  },
  oauth_email_not_verified: {
    status: 403,
    meaning: 'The OAuth provider has not verified the e-mail address.',
  },
  // 404
  session_not_found: {
    status: 404,
    meaning: 'The session is unknown, expired or revoked.',
  },
  intermediate_session_not_found: {
    status: 404,
    meaning: 'The intermediate session token is unknown, expired, used, or not for this member.',
  },
  organization_not_found: {
    status: 404,
    meaning: 'No organization of the project has this id or slug.',
  },
  member_not_found: {
    status: 404,
    meaning: 'No such member, or the member was removed.',
  },
  connection_not_found: {
    status: 404,
    meaning: 'No SSO connection of this organization has this id.',
  },
  sso_test_not_found: {
    status: 404,
    meaning: 'No test sign-in of this SSO connection has this id, or it has expired.',
  },
  certificate_not_found: {
    status: 404,
    meaning: 'The SSO connection has no certificate with this id.',
  },
  template_not_found: {
    status: 404,
    meaning: 'No e-mail template has this id.',
  },
  invitation_not_found: {
    status: 404,
    meaning:
      'The member has no pending invitation to resend or revoke: they signed up without one, or their invitation was already accepted or revoked.',
  },
  magic_link_not_found: {
    status: 404,
    meaning: 'The link is unknown, expired or already used.',
  },
  password_reset_token_not_found: {
    status: 404,
    meaning: 'The reset link is unknown, expired or already used.',
  },
  sso_token_not_found: {
    status: 404,
    meaning: 'The SSO token is unknown, expired or already used.',
  },
  oauth_token_not_found: {
    status: 404,
    meaning: 'The OAuth token is unknown, expired or already used.',
  },
  otp_code_not_found: {
    status: 404,
    meaning: 'No text-message code is pending: it expired, was used, or was never sent.',
  },
  totp_not_found: {
    status: 404,
    meaning: 'The member has no authenticator app registered.',
  },
  secret_not_found: {
    status: 404,
    meaning: 'The project has no secret key with this id.',
  },
  domain_not_found: {
    status: 404,
    meaning: 'The caller’s organization has no domain with this id.',
  },
  endpoint_not_found: {
    status: 404,
    meaning: 'No endpoint has this method and path.',
  },
  // 408
  request_timeout: {
    status: 408,
    meaning:
      'The request did not arrive within the server’s time limit (`REQUEST_TIMEOUT_MS`); the connection is closed.',
  },
  // 409
  stale_update: {
    status: 409,
    meaning:
      'Someone changed it since it was loaded: the `updated_at` sent is not the stored one. Nothing was changed; load it again and retry.',
  },
  last_admin: {
    status: 409,
    meaning:
      'The change would leave the organization with no active member holding the admin role (removing, deactivating or demoting its last admin, oneself included). Nothing was changed; make another member an admin first.',
  },
  domain_already_added: {
    status: 409,
    meaning: 'The organization already lists this domain; verify the one it has.',
  },
  domain_claimed: {
    status: 409,
    meaning:
      'Another organization of the project has verified this domain; it must remove the domain before this one can be verified.',
  },
  // 429
  too_many_requests: {
    status: 429,
    meaning: 'A rate limit was reached; `Retry-After` says when to try again.',
  },
  // 500, 503
  internal_server_error: {
    status: 500,
    meaning: 'Something failed on the server; trying again may work.',
  },
  sms_delivery_failed: {
    status: 503,
    meaning: 'The text message could not be sent; trying again later may work.',
  },
  captcha_unavailable: {
    status: 503,
    meaning:
      'The captcha provider did not answer in time to check the token; trying again later may work.',
  },
  dns_lookup_failed: {
    status: 503,
    meaning:
      'The DNS lookup of a domain’s TXT record failed or timed out (not an answer that the record is missing); trying again later may work.',
  },
} as const satisfies Record<string, ErrorTypeRecord>;

export type ErrorType = keyof typeof ERRORS;

/** Every `error_type`, in the catalogue's order (by status). */
export const ERROR_TYPES = /* @__PURE__ */ Object.keys(ERRORS) as readonly ErrorType[];

/**
 * The HTTP status each error type is sent with.
 *
 * @example
 * ERROR_STATUS.member_not_found; // 404
 */
export const ERROR_STATUS: Readonly<Record<ErrorType, number>> = /* @__PURE__ */ statusesOf(ERRORS);

function statusesOf(errors: typeof ERRORS): Record<ErrorType, number> {
  const statuses = {} as Record<ErrorType, number>;
  for (const type of Object.keys(errors) as ErrorType[]) statuses[type] = errors[type].status;
  return statuses;
}

/**
 * Error types after which the client destroys its local session (docs/protocol.md §3): the
 * session is dead or absent. Typed by the closed set, so a misspelt type does not compile.
 *
 * @example
 * if (UNRECOVERABLE_ERROR_TYPES.has(error.error_type)) clearLocalSession();
 */
export const UNRECOVERABLE_ERROR_TYPES: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'unauthorized_credentials',
  'session_not_found',
]);

/** One entry of a schema error's `body` list. */
export interface SchemaIssue {
  dataPath: string;
  message: string;
}

/** The flat JSON error body of every non-2xx response. */
export interface ErrorBody {
  status_code: number;
  request_id: string;
  error_type: ErrorType;
  error_message: string;
  error_url: string;
  /** Present only on schema errors (`invalid_request`). */
  body?: SchemaIssue[];
  params?: SchemaIssue[];
  query?: SchemaIssue[];
}
