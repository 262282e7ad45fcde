/** The closed set of `error_type` values on the wire, and which of them end a session. */

/** Every `error_type` the server may send, declared once (docs/protocol.md §3). */
export const ERROR_TYPES = [
  // 400
  'invalid_request',
  'invalid_email',
  'invalid_phone_number',
  'duplicate_member_phone_number',
  'weak_password',
  'invalid_redirect_url',
  'pkce_mismatch',
  'pkce_required',
  'organization_slug_taken',
  'invalid_email_domain',
  'invalid_saml_response',
  'saml_assertion_replayed',
  'invalid_oidc_response',
  'invalid_certificate',
  'invalid_saml_metadata',
  'oidc_discovery_failed',
  'sso_connection_inactive',
  'oauth_provider_not_configured',
  'captcha_required',
  'invalid_captcha',
  // 401
  'unauthorized_credentials',
  // 403
  'email_jit_provisioning_not_allowed',
  'invalid_email_for_jit_provisioning',
  'auth_method_not_allowed',
  'mfa_method_not_allowed',
  'primary_auth_required',
  'organization_creation_not_allowed',
  'unauthorized_origin',
  'member_locked',
  'sso_jit_provisioning_not_allowed',
  'idp_initiated_sso_not_allowed',
  'sso_email_not_verified',
  'unauthorized_action',
  'oauth_email_not_verified',
  // 404
  'session_not_found',
  'intermediate_session_not_found',
  'organization_not_found',
  'member_not_found',
  'connection_not_found',
  'certificate_not_found',
  'template_not_found',
  'magic_link_not_found',
  'password_reset_token_not_found',
  'sso_token_not_found',
  'oauth_token_not_found',
  'otp_code_not_found',
  'totp_not_found',
  'secret_not_found',
  'endpoint_not_found',
  // 408
  'request_timeout',
  // 429
  'too_many_requests',
  // 500, 503
  'internal_server_error',
  'sms_delivery_failed',
  'captcha_unavailable',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

/** The HTTP status each error type is sent with. */
export const ERROR_STATUS: Readonly<Record<ErrorType, number>> = {
  invalid_request: 400,
  invalid_email: 400,
  invalid_phone_number: 400,
  duplicate_member_phone_number: 400,
  weak_password: 400,
  invalid_redirect_url: 400,
  pkce_mismatch: 400,
  pkce_required: 400,
  organization_slug_taken: 400,
  invalid_email_domain: 400,
  invalid_saml_response: 400,
  saml_assertion_replayed: 400,
  invalid_oidc_response: 400,
  invalid_certificate: 400,
  invalid_saml_metadata: 400,
  oidc_discovery_failed: 400,
  sso_connection_inactive: 400,
  oauth_provider_not_configured: 400,
  captcha_required: 400,
  invalid_captcha: 400,
  unauthorized_credentials: 401,
  email_jit_provisioning_not_allowed: 403,
  invalid_email_for_jit_provisioning: 403,
  auth_method_not_allowed: 403,
  mfa_method_not_allowed: 403,
  primary_auth_required: 403,
  organization_creation_not_allowed: 403,
  unauthorized_origin: 403,
  member_locked: 403,
  sso_jit_provisioning_not_allowed: 403,
  idp_initiated_sso_not_allowed: 403,
  sso_email_not_verified: 403,
  unauthorized_action: 403,
  oauth_email_not_verified: 403,
  session_not_found: 404,
  intermediate_session_not_found: 404,
  organization_not_found: 404,
  member_not_found: 404,
  connection_not_found: 404,
  certificate_not_found: 404,
  template_not_found: 404,
  magic_link_not_found: 404,
  password_reset_token_not_found: 404,
  sso_token_not_found: 404,
  oauth_token_not_found: 404,
  otp_code_not_found: 404,
  totp_not_found: 404,
  secret_not_found: 404,
  endpoint_not_found: 404,
  request_timeout: 408,
  too_many_requests: 429,
  internal_server_error: 500,
  sms_delivery_failed: 503,
  captcha_unavailable: 503,
};

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
