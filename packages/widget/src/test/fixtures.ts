/** Wire objects for widget tests, shaped as docs/protocol.md §5 describes them. */
import type {
  DiscoveredOrganization,
  DiscoveryResult,
  FullSessionResult,
  Member,
  MembershipType,
  MfaPendingResult,
  Organization,
} from '@gatehouse/protocol';

export function organization(overrides: Partial<Organization> = {}): Organization {
  return {
    organization_id: 'organization-test-acme',
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
    organization_id: 'organization-test-acme',
    member_id: 'member-test-ada',
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
    roles: [],
    ...overrides,
  };
}

export function fullSession(org: Organization = organization()): FullSessionResult {
  const m = member({ organization_id: org.organization_id });
  return {
    request_id: 'request-id-test-3',
    status_code: 200,
    member_id: m.member_id,
    member: m,
    organization: org,
    member_session: {
      member_session_id: 'member-session-test-1',
      member_id: m.member_id,
      organization_id: org.organization_id,
      started_at: '2026-01-01T00:00:00Z',
      last_accessed_at: '2026-01-01T00:00:00Z',
      expires_at: '2026-01-01T01:00:00Z',
      custom_claims: {},
      roles: ['member'],
      authentication_factors: [],
    },
    session_token: 'session-token',
    session_jwt: 'session-jwt',
    member_authenticated: true,
    intermediate_session_token: '',
    mfa_required: null,
  };
}

export function mfaPending(
  memberOverrides: Partial<Member> = {},
  org: Organization = organization(),
  secondaryAuthInitiated: 'sms_otp' | null = null,
): MfaPendingResult {
  const m = member(memberOverrides);
  return {
    request_id: 'request-id-test-4',
    status_code: 200,
    member_id: m.member_id,
    member: m,
    organization: org,
    member_session: null,
    session_token: '',
    session_jwt: '',
    member_authenticated: false,
    intermediate_session_token: 'ist',
    mfa_required: {
      member_options: m.mfa_phone_number ? { mfa_phone_number: m.mfa_phone_number } : null,
      secondary_auth_initiated: secondaryAuthInitiated,
    },
  };
}

export function discovered(
  type: MembershipType,
  org: Partial<Organization> = {},
  primaryRequired: DiscoveredOrganization['primary_required'] = null,
): DiscoveredOrganization {
  const o = organization(org);
  const membership: DiscoveredOrganization['membership'] =
    type === 'eligible_to_join_by_email_domain'
      ? { type, details: { domain: 'acme.test' }, member: null }
      : { type, details: null, member: member({ organization_id: o.organization_id }) };
  return {
    organization: o,
    membership,
    member_authenticated: false,
    mfa_required: null,
    primary_required: primaryRequired,
  };
}

export function discoveryResult(organizations: DiscoveredOrganization[]): DiscoveryResult {
  return {
    request_id: 'request-id-test-5',
    status_code: 200,
    intermediate_session_token: 'ist-discovery',
    email_address: 'ada@acme.test',
    discovered_organizations: organizations,
  };
}
