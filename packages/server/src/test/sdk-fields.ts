/**
 * The fields the hosted provider's backend SDK (`stytch`) types as required, per object, and a
 * check that an answer carries them: what the backend SDK suites assert of every object.
 */
import { expect } from 'vitest';
import type {
  ActiveSSOConnection,
  Member,
  MemberSession,
  OIDCConnection,
  Organization,
  SAMLConnection,
} from 'stytch';

/** The keys of `T` its type requires. */
type RequiredKeys<T> = {
  [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K;
}[keyof T];

/**
 * Every required field of an SDK type, listed once: the compiler refuses a list that misses one
 * or names one the type does not have, so the lists follow the SDK's types.
 */
const required = <T>(keys: Record<RequiredKeys<T>, true>): string[] => Object.keys(keys);

export const ORGANIZATION = required<Organization>({
  organization_id: true,
  organization_name: true,
  organization_logo_url: true,
  organization_slug: true,
  sso_jit_provisioning: true,
  sso_jit_provisioning_allowed_connections: true,
  sso_active_connections: true,
  email_allowed_domains: true,
  email_jit_provisioning: true,
  email_invites: true,
  auth_methods: true,
  allowed_auth_methods: true,
  mfa_policy: true,
  rbac_email_implicit_role_assignments: true,
  mfa_methods: true,
  allowed_mfa_methods: true,
  oauth_tenant_jit_provisioning: true,
  claimed_email_domains: true,
  first_party_connected_apps_allowed_type: true,
  allowed_first_party_connected_apps: true,
  third_party_connected_apps_allowed_type: true,
  allowed_third_party_connected_apps: true,
  custom_roles: true,
});
export const ACTIVE_SSO_CONNECTION = required<ActiveSSOConnection>({
  connection_id: true,
  display_name: true,
  identity_provider: true,
});
export const MEMBER = required<Member>({
  organization_id: true,
  member_id: true,
  email_address: true,
  status: true,
  name: true,
  sso_registrations: true,
  is_breakglass: true,
  member_password_id: true,
  oauth_registrations: true,
  email_address_verified: true,
  mfa_phone_number_verified: true,
  is_admin: true,
  totp_registration_id: true,
  retired_email_addresses: true,
  is_locked: true,
  mfa_enrolled: true,
  mfa_phone_number: true,
  default_mfa_method: true,
  roles: true,
});
export const MEMBER_SESSION = required<MemberSession>({
  member_session_id: true,
  member_id: true,
  started_at: true,
  last_accessed_at: true,
  expires_at: true,
  authentication_factors: true,
  organization_id: true,
  roles: true,
  organization_slug: true,
});
export const SAML_CONNECTION = required<SAMLConnection>({
  organization_id: true,
  connection_id: true,
  status: true,
  idp_entity_id: true,
  display_name: true,
  idp_sso_url: true,
  acs_url: true,
  audience_uri: true,
  signing_certificates: true,
  verification_certificates: true,
  encryption_private_keys: true,
  saml_connection_implicit_role_assignments: true,
  saml_group_implicit_role_assignments: true,
  alternative_audience_uri: true,
  identity_provider: true,
  nameid_format: true,
  alternative_acs_url: true,
  idp_initiated_auth_disabled: true,
  allow_gateway_callback: true,
});
export const OIDC_CONNECTION = required<OIDCConnection>({
  organization_id: true,
  connection_id: true,
  status: true,
  display_name: true,
  redirect_url: true,
  client_id: true,
  client_secret: true,
  issuer: true,
  authorization_url: true,
  token_url: true,
  userinfo_url: true,
  jwks_url: true,
  identity_provider: true,
  custom_scopes: true,
});

/**
 * Fails naming the first field of `keys` that `value` lacks (absent or undefined).
 *
 * @example
 * expectFields(answer.organization, ORGANIZATION);
 */
export function expectFields(value: object | undefined, keys: string[]): void {
  expect(value).toBeDefined();
  const record = value as Record<string, unknown>;
  for (const key of keys) expect(record[key], key).not.toBeUndefined();
}
