/** Request bodies and response data of the SDK API (docs/protocol.md §6–§7). */
import type {
  AnonymousMember,
  DiscoveredOrganization,
  Member,
  MemberSession,
  MfaRequired,
  Organization,
  OrganizationSlugSubset,
  RbacPolicy,
} from './entities.js';
import type { Environment } from './tokens.js';

/** Every success response's `data` carries these. */
export interface Ack {
  request_id: string;
  status_code: number;
}

/** The success envelope. */
export interface Envelope<T> {
  data: T;
}

/** Result F: a full member session. */
export interface FullSessionResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
  member_session: MemberSession;
  session_token: string;
  session_jwt: string;
  member_authenticated: true;
  intermediate_session_token: '';
  mfa_required: null;
}

/** Result AM variant B: MFA still needed. */
export interface MfaPendingResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
  member_session: null;
  session_token: '';
  session_jwt: '';
  member_authenticated: false;
  intermediate_session_token: string;
  mfa_required: MfaRequired;
}

/** Result AM: a full session or an MFA-pending one. */
export type AuthResult = FullSessionResult | MfaPendingResult;

/** Result DR: a discovery result. */
export interface DiscoveryResult extends Ack {
  intermediate_session_token: string;
  email_address: string;
  discovered_organizations: DiscoveredOrganization[];
}

export interface BootstrapData extends Ack {
  disable_sdk_watermark: boolean;
  captcha_settings: { enabled: boolean; siteKey?: string };
  cname_domain: string | null;
  email_domains: string[];
  pkce_required_for_email_magic_links: boolean;
  pkce_required_for_password_resets: boolean;
  pkce_required_for_oauth: boolean;
  pkce_required_for_sso: boolean;
  slug_pattern: string | null;
  create_organization_enabled: boolean;
  password_config: { luds_complexity: number; luds_minimum_count: number } | null;
  dfp_protected_auth_enabled: boolean;
  rbac_policy: RbacPolicy;
}

// --- Magic links (§7.1)

export type MagicLinkAuthenticateResult = AuthResult & { method_id: string };

// --- Discovery (§7.3)

export interface DiscoveryOrganizationsResult extends Ack {
  email_address: string;
  discovered_organizations: DiscoveredOrganization[];
  organization_id_hint: string | null;
}

// --- Anonymous lookups (§7.4)

export interface OrganizationSearchResult extends Ack {
  organization: OrganizationSlugSubset | null;
}

export interface MemberSearchResult extends Ack {
  member: Pick<Member, 'status' | 'name' | 'member_password_id'> | null;
}

// --- Sessions (§7.5)

// --- Events (§7.9)

export interface TelemetryHeader {
  event_id: string;
  app_session_id: string;
  persistent_id: string;
  client_sent_at: string;
  timezone: string;
  stytch_member_id?: string;
  stytch_member_session_id?: string;
  app: { identifier: string };
  sdk: { identifier: string; version: string };
}

export interface TelemetryEvent {
  public_token: string;
  event_name: string;
  details: Record<string, unknown>;
  error_code?: string;
  error_description?: string;
  http_status_code?: number;
}

export type EventsBody = { telemetry: TelemetryHeader; event: TelemetryEvent }[];

/**
 * The `passwords/strength_check` verdict (docs/protocol.md §7.2), without the `request_id` and
 * `status_code` every response carries: the server computes it, the client returns it with them.
 */
export interface PasswordStrengthCheck {
  valid_password: boolean;
  /** zxcvbn's score, 0–4, whatever the policy. */
  score: number;
  breached_password: boolean;
  breach_detection_on_create: boolean;
  strength_policy: 'zxcvbn' | 'luds';
  zxcvbn_feedback: { warning: string; suggestions: string[] };
  luds_feedback: {
    has_lower_case: boolean;
    has_upper_case: boolean;
    has_digit: boolean;
    has_symbol: boolean;
    missing_complexity: number;
    missing_characters: number;
  };
}

/** `passwords/strength_check` response data (docs/protocol.md §7.2). */
export interface PasswordStrengthResult extends PasswordStrengthCheck, Ack {}

/** What `set_mfa_enrollment` may ask for when a second factor is passed (docs/protocol.md §7.7). */
export type MfaEnrollmentChange = 'enroll' | 'unenroll';

/** `passwords/email/reset/start`: the caller is anonymous, so the anonymous subsets (§5, §7.2). */
export interface PasswordResetStartResult extends Ack {
  member_id: string;
  member: AnonymousMember;
  organization: OrganizationSlugSubset;
}

/**
 * `magic_links/email/invite` (SDK and management API): the invited member, status `invited`, and
 * its organization.
 */
export interface InviteResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** `POST /b2b/totp`: a pending registration with its QR code (a PNG data URL). */
export interface TotpCreateResult extends Ack {
  totp_id: string;
  secret: string;
  qr_code: string;
  recovery_codes: string[];
}

/** `recovery_codes/recover`: F plus how many codes are left. */
export type RecoveryCodesRecoverResult = FullSessionResult & { recovery_codes_remaining: number };

/** `recovery_codes` and `recovery_codes/rotate`. */
export interface RecoveryCodesResult extends Ack {
  recovery_codes: string[];
}

/** Management API: one organization. */
export interface OrganizationResult extends Ack {
  organization: Organization;
}

/** The kinds of redirect URL a project allow-lists; the first URL of each kind is its default. */
export const REDIRECT_URL_KINDS = ['login', 'signup', 'discovery', 'reset_password'] as const;
export type RedirectUrlKind = (typeof REDIRECT_URL_KINDS)[number];

/** A project's settings as the management API shows and changes them. */
export interface ProjectSettings {
  project_id: string;
  name: string;
  environment: Environment;
  public_token: string;
  /** The organization URL pattern with `{{slug}}`, or null (bootstrap's `slug_pattern`). */
  slug_pattern: string | null;
  pkce_required_for_email_magic_links: boolean;
  pkce_required_for_password_resets: boolean;
  pkce_required_for_oauth: boolean;
  pkce_required_for_sso: boolean;
  /** Origins whose pages may call the SDK API. */
  authorized_origins: string[];
  /** Allow-listed redirect URLs by kind; the first of each kind is the default. */
  redirect_urls: Record<RedirectUrlKind, string[]>;
  /** Whether people may create organizations during discovery. */
  create_organization_enabled: boolean;
  password_policy: {
    strength_policy: 'none' | 'zxcvbn' | 'luds';
    /** LUDS: how many of the four character classes a password needs (1–4). */
    luds_complexity: number;
    /** LUDS: the minimum length in characters. */
    luds_minimum_count: number;
  };
  /**
   * The absolute lifetime of the project's sessions in minutes, from sign-in; null when the
   * server's `SESSION_MAX_LIFETIME_MINUTES` applies.
   */
  session_max_lifetime_minutes: number | null;
  /** Whether the widget shows its 'Powered by Gatehouse' line (bootstrap's watermark flag). */
  display_watermark: boolean;
}

/** Management API: the calling project's settings. */
export interface ProjectResult extends Ack {
  project: ProjectSettings;
}

/** Management API: one member with their organization. */
export interface MemberResult extends Ack {
  /** The member's id beside the member, as the provider's backend API answers. */
  member_id: string;
  member: Member;
  organization: Organization;
}

/** Management API `sessions/authenticate`: what a host backend learns about a session. */
export interface BackendSessionResult extends Ack {
  member: Member;
  organization: Organization;
  member_session: MemberSession;
  /** The session's token when it was authenticated by it; '' by a JWT (only the token gives it back). */
  session_token: string;
  session_jwt: string;
  /** With an `authorization_check` that passed: the member's roles that grant the action. */
  verdict?: { authorized: true; granting_roles: string[] };
}

/** Management API `sessions/revoke`: what was ended. */
/** A JWT signing key, as the management API lists it (the key material never leaves the server). */
export interface SigningKeySummary {
  kid: string;
  created_at: string;
  /** When a newer key took over; null for the key that signs now. */
  retired_at: string | null;
}

export interface SigningKeysResult extends Ack {
  /** Newest first; the JWKS publishes the active key and keys retired within five minutes and a minute. */
  keys: SigningKeySummary[];
}

export interface SigningKeyRotateResult extends Ack {
  key: SigningKeySummary;
}

/** One of a project's secret keys, as the management API lists it (never the key itself). */
export interface ProjectSecretSummary {
  secret_id: string;
  created_at: string;
  /** Whether the call that lists it was authenticated with this key (false from the CLI). */
  used_by_this_request: boolean;
}

/** Management API `GET /v1/b2b/project/secrets`: the project's secret keys, oldest first. */
export interface ProjectSecretsResult extends Ack {
  secrets: ProjectSecretSummary[];
}

/** Management API `POST /v1/b2b/project/secrets`: the new key, shown this once. */
export interface ProjectSecretCreateResult extends Ack {
  secret_id: string;
  created_at: string;
  /** The key in clear; only its hash is stored, so it cannot be read again. */
  secret: string;
}

/** Management API `DELETE /v1/b2b/project/secrets/{secret_id}`: the key that stopped working. */
export interface ProjectSecretDeleteResult extends Ack {
  secret_id: string;
}

export interface RevokeSessionsResult extends Ack {
  member_id: string;
  revoked_session_ids: string[];
}

/** Management API: the project's RBAC policy, built-in roles and resources included. */
export interface RbacPolicyResult extends Ack {
  /** With the provider's `scopes` (of connected apps, which Gatehouse does not offer): `[]`. */
  policy: RbacPolicy & { scopes: never[] };
}

/** A member-session call about the caller or one member of their organization (§7.10). */
export interface MemberSelfResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** A member deleted from the caller's organization (§7.10). */
export interface MemberDeleteResult extends Ack {
  member_id: string;
}

/** `me/members/search` (§7.10): one page of the caller's organization's members. */
export interface OrganizationMembersSearchResult extends Ack {
  members: Member[];
  results_metadata: { total: number; next_cursor: string | null };
}
