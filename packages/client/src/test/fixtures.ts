/** Test fixtures: wire objects shaped as docs/protocol.md §5 describes them. */
import type {
  BootstrapData,
  DiscoveryResult,
  FullSessionResult,
  Member,
  MemberSession,
  MfaPendingResult,
  Organization,
} from '@gatehouse/protocol';

export const PUBLIC_TOKEN = 'public-token-test-5f0c1a2b-0d5e-4f6a-9b7c-1d2e3f4a5b6c';
export const SESSION_TOKEN = 'c2Vzc2lvbi10b2tlbi1zZXNzaW9uLXRva2VuLXNlc3Np';
export const SESSION_JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtZW1iZXIifQ.c2lnbmF0dXJl';
export const IST = 'aW50ZXJtZWRpYXRlLXNlc3Npb24tdG9rZW4tLS0tLS0t';

export function organization(overrides: Partial<Organization> = {}): Organization {
  return {
    organization_id: 'organization-test-1',
    organization_slug: 'acme',
    organization_name: 'Acme',
    organization_logo_url: '',
    sso_active_connections: [],
    sso_default_connection_id: null,
    email_jit_provisioning: 'RESTRICTED',
    email_allowed_domains: ['acme.test'],
    auth_methods: 'ALL_ALLOWED',
    allowed_auth_methods: [],
    mfa_policy: 'OPTIONAL',
    mfa_methods: 'ALL_ALLOWED',
    allowed_mfa_methods: [],
    ...overrides,
  };
}

export function member(overrides: Partial<Member> = {}): Member {
  return {
    organization_id: 'organization-test-1',
    member_id: 'member-test-1',
    email_address: 'ada@acme.test',
    email_address_verified: true,
    name: 'Ada',
    status: 'active',
    member_password_id: '',
    mfa_enrolled: false,
    mfa_phone_number: '',
    mfa_phone_number_verified: false,
    totp_registration_id: '',
    default_mfa_method: '',
    roles: [{ role_id: 'member', sources: [{ type: 'direct_assignment', details: {} }] }],
    ...overrides,
  };
}

export function memberSession(overrides: Partial<MemberSession> = {}): MemberSession {
  return {
    member_session_id: 'member-session-test-1',
    member_id: 'member-test-1',
    organization_id: 'organization-test-1',
    started_at: '2030-01-01T00:00:00Z',
    last_accessed_at: '2030-01-01T00:00:00Z',
    expires_at: '2030-01-01T01:00:00Z',
    custom_claims: {},
    roles: ['member'],
    authentication_factors: [],
    ...overrides,
  };
}

/** Result F. */
export function fullSession(
  overrides: Partial<MemberSession> = {},
  token = SESSION_TOKEN,
): FullSessionResult {
  return {
    request_id: 'request-id-test-1',
    status_code: 200,
    member_id: 'member-test-1',
    member: member(),
    organization: organization(),
    member_session: memberSession(overrides),
    session_token: token,
    session_jwt: SESSION_JWT,
    member_authenticated: true,
    intermediate_session_token: '',
    mfa_required: null,
  };
}

/** Result AM variant B. */
export function mfaPending(): MfaPendingResult {
  return {
    request_id: 'request-id-test-2',
    status_code: 200,
    member_id: 'member-test-1',
    member: member(),
    organization: organization(),
    member_session: null,
    session_token: '',
    session_jwt: '',
    member_authenticated: false,
    intermediate_session_token: IST,
    mfa_required: { member_options: null, secondary_auth_initiated: null },
  };
}

/** Result DR. */
export function discoveryResult(): DiscoveryResult {
  return {
    request_id: 'request-id-test-3',
    status_code: 200,
    intermediate_session_token: IST,
    email_address: 'ada@acme.test',
    discovered_organizations: [],
  };
}

export function bootstrapData(overrides: Partial<BootstrapData> = {}): BootstrapData {
  return {
    request_id: 'request-id-test-4',
    status_code: 200,
    disable_sdk_watermark: true,
    captcha_settings: { enabled: false },
    cname_domain: null,
    email_domains: ['mail.acme.test'],
    pkce_required_for_email_magic_links: false,
    pkce_required_for_password_resets: false,
    pkce_required_for_oauth: false,
    pkce_required_for_sso: false,
    slug_pattern: 'https://app.acme.test/{{slug}}/login',
    create_organization_enabled: true,
    password_config: null,
    dfp_protected_auth_enabled: false,
    rbac_policy: {
      roles: [
        {
          role_id: 'admin',
          description: '',
          permissions: [{ resource_id: 'documents', actions: ['*'] }],
        },
        {
          role_id: 'member',
          description: '',
          permissions: [{ resource_id: 'documents', actions: ['read'] }],
        },
      ],
      resources: [
        { resource_id: 'documents', description: '', actions: ['read', 'write', 'delete'] },
      ],
    },
    ...overrides,
  };
}
