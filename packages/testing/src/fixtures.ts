/** Wire objects for client and widget tests, typed by the protocol and shaped as docs/protocol.md §5 says. */
import type {
  BootstrapData,
  DiscoveredOrganization,
  DiscoveryResult,
  FullSessionResult,
  Member,
  MembershipType,
  MemberSession,
  MfaPendingResult,
  Organization,
  PasswordResetStartResult,
  PasswordStrengthResult,
} from '@gatehouse/protocol';
import { toAnonymousMember, toSlugSubset } from '@gatehouse/protocol';

/** The origin the fixtures' server lives on; the fake client's endpoints point there. */
export const BASE_URL = 'https://auth.acme.test';
export const PUBLIC_TOKEN = 'public-token-test-5f0c1a2b-0d5e-4f6a-9b7c-1d2e3f4a5b6c';
export const SESSION_TOKEN = 'c2Vzc2lvbi10b2tlbi1zZXNzaW9uLXRva2VuLXNlc3Np';
export const SESSION_JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtZW1iZXIifQ.c2lnbmF0dXJl';
/** The intermediate session token of both variant B and the discovery result. */
export const IST = 'aW50ZXJtZWRpYXRlLXNlc3Npb24tdG9rZW4tLS0tLS0t';
export const ORGANIZATION_ID = 'organization-test-acme';
export const MEMBER_ID = 'member-test-ada';
export const MEMBER_SESSION_ID = 'member-session-test-1';
/** When Acme and Ada were created, and when Ada's session starts. */
const CREATED_AT = '2030-01-01T00:00:00Z';

/**
 * Acme: e-mail domain `acme.test`, every method allowed, MFA optional.
 *
 * @example
 * const totpOnly = organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['totp'] });
 */
export function organization(overrides: Partial<Organization> = {}): Organization {
  return {
    organization_id: ORGANIZATION_ID,
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
    trusted_metadata: {},
    sso_jit_provisioning: 'NOT_ALLOWED',
    email_invites: 'ALL_ALLOWED',
    sso_jit_provisioning_allowed_connections: [],
    rbac_email_implicit_role_assignments: [],
    oauth_tenant_jit_provisioning: 'NOT_ALLOWED',
    allowed_oauth_tenants: {},
    claimed_email_domains: [],
    first_party_connected_apps_allowed_type: '',
    allowed_first_party_connected_apps: [],
    third_party_connected_apps_allowed_type: '',
    allowed_third_party_connected_apps: [],
    custom_roles: [],
    session_max_duration_minutes: null,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    ...overrides,
  };
}

/**
 * Ada, an active member of Acme with the `member` role, no password and no second factor.
 *
 * @example
 * const withPassword = member({ member_password_id: 'member-password-test-1' });
 */
export function member(overrides: Partial<Member> = {}): Member {
  return {
    organization_id: ORGANIZATION_ID,
    member_id: MEMBER_ID,
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
    trusted_metadata: {},
    untrusted_metadata: {},
    sso_registrations: [],
    oauth_registrations: [],
    is_breakglass: false,
    is_admin: false,
    is_locked: false,
    retired_email_addresses: [],
    last_sign_in_at: null,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    ...overrides,
  };
}

/**
 * Ada's session, started 2030-01-01T00:00Z for an hour.
 *
 * @example
 * const touched = memberSession({ last_accessed_at: '2030-01-01T00:03:00Z' });
 */
export function memberSession(overrides: Partial<MemberSession> = {}): MemberSession {
  return {
    member_session_id: MEMBER_SESSION_ID,
    member_id: MEMBER_ID,
    organization_id: ORGANIZATION_ID,
    organization_slug: 'acme',
    started_at: CREATED_AT,
    last_accessed_at: CREATED_AT,
    expires_at: '2030-01-01T01:00:00Z',
    custom_claims: {},
    roles: ['member'],
    authentication_factors: [],
    ...overrides,
  };
}

/**
 * Result F: Ada signed in to Acme.
 *
 * @example
 * const admin = fullSession({ roles: ['admin'] });
 * const renewed = fullSession({ member_session_id: 'member-session-test-2' }, 'new-token');
 */
export function fullSession(
  sessionOverrides: Partial<MemberSession> = {},
  sessionToken = SESSION_TOKEN,
): FullSessionResult {
  return {
    request_id: 'request-id-test-1',
    status_code: 200,
    member_id: MEMBER_ID,
    member: member(),
    organization: organization(),
    member_session: memberSession(sessionOverrides),
    session_token: sessionToken,
    session_jwt: SESSION_JWT,
    member_authenticated: true,
    intermediate_session_token: '',
    mfa_required: null,
  };
}

/**
 * Result AM variant B: Ada's primary factor passed and a second one is owed. `member_options`
 * follows the member's phone number, as the server sets it.
 *
 * @example
 * const enrolledTotp = mfaPending({ totp_registration_id: 'member-totp-test-1' });
 * const texted = mfaPending({ mfa_phone_number: '+12015550123' }, organization(), 'sms_otp');
 */
export function mfaPending(
  memberOverrides: Partial<Member> = {},
  org: Organization = organization(),
  secondaryAuthInitiated: 'sms_otp' | null = null,
): MfaPendingResult {
  const m = member({ organization_id: org.organization_id, ...memberOverrides });
  return {
    request_id: 'request-id-test-2',
    status_code: 200,
    member_id: m.member_id,
    member: m,
    organization: org,
    member_session: null,
    session_token: '',
    session_jwt: '',
    member_authenticated: false,
    intermediate_session_token: IST,
    mfa_required: {
      member_options: m.mfa_phone_number ? { mfa_phone_number: m.mfa_phone_number } : null,
      secondary_auth_initiated: secondaryAuthInitiated,
    },
  };
}

/**
 * One element of a discovery result: a membership of Ada, or an organization her domain may join.
 *
 * @example
 * const invited = discovered('invited_member', { organization_name: 'Umbrella' });
 */
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

/**
 * Result DR for ada@acme.test.
 *
 * @example
 * const result = discoveryResult([discovered('active_member')]);
 */
export function discoveryResult(organizations: DiscoveredOrganization[] = []): DiscoveryResult {
  return {
    request_id: 'request-id-test-3',
    status_code: 200,
    intermediate_session_token: IST,
    email_address: 'ada@acme.test',
    discovered_organizations: organizations,
  };
}

/**
 * The answer of a password reset start for Ada: the anonymous member subset and the slug subset,
 * since the caller is anonymous (docs/protocol.md §7.2).
 *
 * @example
 * client.answer('passwords.resetByEmailStart', async () => resetStarted());
 */
export function resetStarted(): PasswordResetStartResult {
  const ada = member();
  return {
    request_id: 'request-id-test-5',
    status_code: 200,
    member_id: ada.member_id,
    member: toAnonymousMember(ada),
    organization: toSlugSubset(organization()),
  };
}

/**
 * A `passwords/strength_check` verdict under the zxcvbn policy: a weak password by default.
 *
 * @example
 * const strong = strengthVerdict({ valid_password: true, score: 4 });
 */
export function strengthVerdict(
  overrides: Partial<PasswordStrengthResult> = {},
): PasswordStrengthResult {
  return {
    request_id: 'request-id-test-6',
    status_code: 200,
    valid_password: false,
    score: 0,
    breached_password: false,
    breach_detection_on_create: true,
    strength_policy: 'zxcvbn',
    zxcvbn_feedback: { warning: '', suggestions: [] },
    luds_feedback: {
      has_lower_case: false,
      has_upper_case: false,
      has_digit: false,
      has_symbol: false,
      missing_complexity: 3,
      missing_characters: 8,
    },
    ...overrides,
  };
}

/**
 * The bootstrap of a fresh project (docs/protocol.md §6) whose login pages live at
 * `http://localhost:3000/{slug}/login`, with an `admin` and a `member` role.
 *
 * @example
 * const pkce = bootstrapData({ pkce_required_for_email_magic_links: true });
 */
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
    slug_pattern: 'http://localhost:3000/{{slug}}/login',
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
