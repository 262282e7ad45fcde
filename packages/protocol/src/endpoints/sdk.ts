/** The SDK API under `/sdk/v1` (docs/protocol.md §6–§7): what the browser client and widget call. */
import { z } from 'zod';
import type {
  Ack,
  AuthResult,
  BootstrapData,
  DiscoveryOrganizationsResult,
  DiscoveryResult,
  FullSessionResult,
  InviteResult,
  MagicLinkAuthenticateResult,
  MemberDeleteResult,
  MemberSearchResult,
  OrganizationSearchResult,
  PasswordResetStartResult,
  PasswordStrengthResult,
  RecoveryCodesRecoverResult,
  RecoveryCodesResult,
  TotpCreateResult,
} from '../api.js';
import {
  DEFAULT_SESSION_DURATION_MINUTES,
  PASSWORD_SESSION_DURATION_FALLBACK_MINUTES,
} from '../constants.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** Telemetry items per batch (docs/protocol.md §7.9): the client sends at most 15. */
export const MAX_EVENTS_PER_BATCH = 50;

const duration = f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES);
/** Password login and reset by e-mail fall back to 30 minutes (docs/widget.md §9). */
const passwordDuration = f.sessionDuration.default(PASSWORD_SESSION_DURATION_FALLBACK_MINUTES);
const mfaCaller = { organization_id: f.id, member_id: f.id, intermediate_session_token: f.ist };

export const SDK_ENDPOINTS = {
  bootstrap: endpoint<BootstrapData>()({
    method: 'GET',
    path: '/sdk/v1/projects/bootstrap/:public_token',
    credential: 'A',
    summary: "The project's public settings, fetched once when the client starts (§6).",
    body: null,
  }),
  events: endpoint<Record<string, never>>()({
    method: 'POST',
    path: '/sdk/v1/events',
    credential: 'none',
    summary: 'Files a batch of telemetry items by their public token (§7.9).',
    body: z
      .array(z.unknown())
      .max(MAX_EVENTS_PER_BATCH, `must have at most ${MAX_EVENTS_PER_BATCH} items`),
  }),

  magicLinksLoginOrSignup: endpoint<Ack>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/email/login_or_signup',
    credential: 'A',
    summary: 'E-mails a login or sign-up link for one organization (§7.1).',
    body: z.object({
      email_address: f.email,
      organization_id: f.id,
      login_redirect_url: f.url.optional(),
      signup_redirect_url: f.url.optional(),
      login_template_id: f.templateId.optional(),
      signup_template_id: f.templateId.optional(),
      locale: f.locale.optional(),
      pkce_code_challenge: f.pkceChallenge.optional(),
    }),
  }),
  magicLinksDiscoverySend: endpoint<Ack>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/email/discovery/send',
    credential: 'A',
    captcha: true,
    summary: 'E-mails a discovery link (§7.1).',
    body: z.object({
      email_address: f.email,
      discovery_redirect_url: f.url.optional(),
      login_template_id: f.templateId.optional(),
      locale: f.locale.optional(),
      pkce_code_challenge: f.pkceChallenge.optional(),
    }),
  }),
  magicLinksInvite: endpoint<InviteResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/email/invite',
    credential: 'S',
    summary:
      "Invites someone into the session's organization by e-mail (`stytch.member` `create`; only roles the inviter holds) (§7.1).",
    body: z.object({
      ...f.inviteFields,
      /** Optional; when sent it must be the session's own organization. */
      organization_id: f.id.optional(),
      locale: f.locale.optional(),
    }),
  }),
  magicLinksInviteResend: endpoint<InviteResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/email/invite/resend',
    credential: 'S',
    summary:
      "E-mails a new invitation link to an invited member of the session's organization, keeping their name and roles (`stytch.member` `create`) (§7.1).",
    body: z
      .object({
        member_id: f.id,
        invite_redirect_url: f.inviteFields.invite_redirect_url,
        invite_expiration_minutes: f.inviteFields.invite_expiration_minutes,
        locale: f.locale.optional(),
      })
      .strict(),
  }),
  magicLinksInviteRevoke: endpoint<MemberDeleteResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/email/invite/revoke',
    credential: 'S',
    summary:
      "Revokes a pending invitation of the session's organization: the invited member is removed and their links stop working (`stytch.member` `create`) (§7.1).",
    body: z.object({ member_id: f.id }).strict(),
  }),
  magicLinksAuthenticate: endpoint<MagicLinkAuthenticateResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/authenticate',
    credential: 'A',
    captcha: true,
    summary: 'Redeems a login or sign-up link: result AM (§7.1).',
    body: z.object({
      magic_links_token: f.id,
      session_duration_minutes: duration,
      locale: f.locale.optional(),
      pkce_code_verifier: f.pkceVerifier.optional(),
      intermediate_session_token: f.ist,
    }),
  }),
  magicLinksDiscoveryAuthenticate: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/magic_links/discovery/authenticate',
    credential: 'A',
    captcha: true,
    summary: 'Redeems a discovery link: result DR (§7.1).',
    body: z.object({
      discovery_magic_links_token: f.id,
      pkce_code_verifier: f.pkceVerifier.optional(),
    }),
  }),

  passwordsAuthenticate: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/authenticate',
    credential: 'A',
    captcha: true,
    summary: 'Signs in with e-mail and password: result AM (§7.2).',
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      password: f.password,
      session_duration_minutes: passwordDuration,
      locale: f.locale.optional(),
      // Sent by the client from its `passwords` PKCE pair; a login has nothing to bind it to.
      code_verifier: z.string().max(256).optional(),
      intermediate_session_token: f.ist,
    }),
  }),
  passwordsResetStart: endpoint<PasswordResetStartResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/email/reset/start',
    credential: 'A',
    captcha: true,
    summary: 'E-mails a password reset link (§7.2).',
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      login_redirect_url: f.url.optional(),
      reset_password_redirect_url: f.url.optional(),
      reset_password_expiration_minutes: z
        .number()
        .int('must be an integer')
        .min(5, 'must be at least 5')
        .max(10_080, 'must be at most 10080')
        .optional(),
      reset_password_template_id: f.templateId.optional(),
      locale: f.locale.optional(),
      code_challenge: f.pkceChallenge.optional(),
    }),
  }),
  passwordsResetByEmail: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/email/reset',
    credential: 'A',
    captcha: true,
    summary: 'Sets a new password with a reset link: result AM (§7.2).',
    body: z.object({
      password_reset_token: f.id,
      password: f.password,
      session_duration_minutes: passwordDuration,
      locale: f.locale.optional(),
      code_verifier: f.pkceVerifier.optional(),
      intermediate_session_token: f.ist,
    }),
  }),
  passwordsResetCheck: endpoint<Ack>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/email/reset/check',
    credential: 'A',
    summary:
      'Whether a reset link can still set a password, without spending it: 200, or 404 password_reset_token_not_found (§7.2).',
    body: z.object({
      password_reset_token: f.id,
      code_verifier: f.pkceVerifier.optional(),
    }),
  }),
  passwordsDiscoveryAuthenticate: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/discovery/authenticate',
    credential: 'A',
    captcha: true,
    summary:
      'Checks an e-mail and password against every organization of the address: result DR (§7.2, §7.3).',
    body: z.object({ email_address: f.email, password: f.password }),
  }),
  passwordsResetExisting: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/existing_password/reset',
    credential: 'A',
    captcha: true,
    summary: 'Replaces a password given the current one: result AM (§7.2).',
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      existing_password: f.password,
      new_password: f.password,
      session_duration_minutes: duration,
      locale: f.locale.optional(),
    }),
  }),
  passwordsResetSession: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/session/reset',
    credential: 'S',
    captcha: true,
    summary:
      "Sets the signed-in member's password: result F (§7.2); with `existing_password`, only if " +
      'it is their current one.',
    body: z.object({ password: f.password, existing_password: f.password.optional() }),
  }),
  passwordsStrengthCheck: endpoint<PasswordStrengthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/strength_check',
    credential: 'A',
    summary: "Scores a password against the project's policy and breach lists (§7.2).",
    body: z.object({
      password: z.string().max(256),
      email_address: z.string().max(254).optional(),
    }),
  }),

  discoveryOrganizations: endpoint<DiscoveryOrganizationsResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/discovery/organizations',
    credential: 'I',
    summary: 'Lists the organizations an address reaches (§7.3).',
    body: z.object({ intermediate_session_token: f.ist }),
  }),
  discoveryOrganizationsCreate: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/discovery/organizations/create',
    credential: 'I',
    summary: 'Creates an organization with the caller as its admin: result AM (§7.3).',
    body: z.object({
      intermediate_session_token: f.ist,
      session_duration_minutes: duration,
      organization_name: f.organizationName.optional(),
      organization_slug: f.slug.optional(),
      organization_logo_url: f.url.optional(),
      sso_jit_provisioning: f.ssoJitChoice.optional(),
      email_allowed_domains: f.domains.optional(),
      email_invites: z.string().max(32).optional(),
      auth_methods: f.methodsChoice.optional(),
      allowed_auth_methods: f.authMethods.optional(),
      mfa_policy: f.mfaPolicy.optional(),
    }),
  }),
  discoveryExchange: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/discovery/intermediate_sessions/exchange',
    credential: 'I',
    summary: 'Enters an organization with an IST or a session: result AM (§7.3).',
    body: z.object({
      intermediate_session_token: f.ist,
      organization_id: f.id,
      session_duration_minutes: duration,
      locale: f.locale.optional(),
    }),
  }),

  ssoAuthenticate: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sso/authenticate',
    credential: 'A',
    captcha: true,
    summary: 'Redeems the token an SSO sign-in returned with: result AM (§7.6).',
    body: z.object({
      sso_token: f.id,
      session_duration_minutes: duration,
      locale: f.locale.optional(),
      pkce_code_verifier: f.pkceVerifier.optional(),
      intermediate_session_token: f.ist,
    }),
  }),

  organizationsSearch: endpoint<OrganizationSearchResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/search',
    credential: 'A',
    summary: 'Finds an organization by slug; the slug subset or null (§7.4).',
    body: z.object({ organization_slug: f.slug }),
  }),
  membersSearch: endpoint<MemberSearchResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/members/search',
    credential: 'A',
    summary: 'Whether an address is a member, and whether it has a password (§7.4).',
    body: z.object({ email_address: f.email, organization_id: f.id }),
  }),

  sessionsAuthenticate: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sessions/authenticate',
    credential: 'S',
    summary: 'Refreshes the session: same token, fresh JWT, result F (§7.5).',
    body: z.object({ session_duration_minutes: f.sessionDuration.optional() }),
  }),
  sessionsRevoke: endpoint<Ack>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sessions/revoke',
    credential: 'S',
    summary: 'Ends the session (§7.5).',
    body: null,
  }),
  sessionsExchange: endpoint<AuthResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/sessions/exchange',
    credential: 'S',
    summary: 'Moves the session into another organization: result AM (§7.5).',
    body: z.object({
      organization_id: f.id,
      session_duration_minutes: duration,
      locale: f.locale.optional(),
    }),
  }),

  smsSend: endpoint<Ack>()({
    method: 'POST',
    path: '/sdk/v1/b2b/otps/sms/send',
    credential: 'I',
    captcha: true,
    summary: 'Texts a one-time code to the member (§7.7).',
    body: z.object({
      ...mfaCaller,
      mfa_phone_number: z.string().max(64).optional(),
      locale: f.locale.optional(),
    }),
  }),
  smsAuthenticate: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/otps/sms/authenticate',
    credential: 'I',
    captcha: true,
    summary: 'Checks a texted code: result F (§7.7).',
    body: z.object({
      ...mfaCaller,
      code: f.code,
      set_mfa_enrollment: f.mfaEnrollment.optional(),
      session_duration_minutes: f.sessionDuration.optional(),
    }),
  }),
  totpCreate: endpoint<TotpCreateResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/totp',
    credential: 'I',
    captcha: true,
    summary: 'Starts an authenticator-app registration (§7.7).',
    body: z.object({
      ...mfaCaller,
      expiration_minutes: f.totpExpiration.optional(),
    }),
  }),
  totpAuthenticate: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/totp/authenticate',
    credential: 'I',
    captcha: true,
    summary: 'Checks an authenticator-app code: result F (§7.7).',
    body: z.object({
      ...mfaCaller,
      code: f.code,
      set_mfa_enrollment: f.mfaEnrollment.optional(),
      set_default_mfa: z.boolean().optional(),
      session_duration_minutes: f.sessionDuration.optional(),
    }),
  }),
  recoveryCodesRecover: endpoint<RecoveryCodesRecoverResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/recovery_codes/recover',
    credential: 'I',
    captcha: true,
    summary: 'Passes MFA with a recovery code: result F (§7.7).',
    body: z.object({
      ...mfaCaller,
      recovery_code: f.text.max(64),
      session_duration_minutes: f.sessionDuration.optional(),
    }),
  }),
  recoveryCodesRotate: endpoint<RecoveryCodesResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/recovery_codes/rotate',
    credential: 'S',
    captcha: true,
    summary: "Replaces the member's recovery codes (§7.7).",
    body: null,
  }),
  recoveryCodesGet: endpoint<RecoveryCodesResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/recovery_codes',
    credential: 'S',
    summary: "The member's unused recovery codes (§7.7).",
    body: null,
  }),
} as const;
