/**
 * The e-mail link calls of the management API that the hosted provider's backend SDK makes:
 * `magicLinks.email.loginOrSignup`, `magicLinks.authenticate` and
 * `magicLinks.email.discovery.send`, `magicLinks.discovery.authenticate`,
 * `passwords.email.resetStart` and `reset`,
 * `discovery.organizations.list` and `create` and `discovery.intermediateSessions.exchange`, with
 * its paths, fields and answers. They share the browser API's services: the same send limits,
 * single-use links and redirect allow-lists, and the same discovery rules (§7.3).
 */
import { z } from 'zod';
import type { Ack, AuthResult, DiscoveryOrganizationsResult, DiscoveryResult } from '../api.js';
import { DEFAULT_SESSION_DURATION_MINUTES } from '../constants.js';
import type { Member, Organization } from '../entities.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** `magicLinks.email.loginOrSignup`: whom the link was sent to. */
export interface BackendLoginOrSignupResult extends Ack {
  member_id: string;
  /** True when the call created the member, as pending until their link is redeemed. */
  member_created: boolean;
  member: Member;
  organization: Organization;
}

/** `magicLinks.authenticate`: result AM (§7.1) with the provider's extra names. */
export type BackendMagicLinkAuthenticateResult = AuthResult & {
  method_id: string;
  organization_id: string;
  /** Whether other sessions were ended; never: false. */
  reset_sessions: false;
};

/** `passwords.email.resetStart`: whom the reset link was sent to. */
export interface BackendResetStartResult extends Ack {
  member_id: string;
  member_email_id: string;
  member: Member;
}

/** `passwords.email.reset`: result AM (§7.2) with the provider's extra names. */
export type BackendPasswordResetResult = AuthResult & {
  member_email_id: string;
  organization_id: string;
};

const metadata = z.record(z.string().max(256), z.unknown());
/** The intermediate session token a discovery call that enters or creates an organization needs. */
const requiredIst = z.string().min(1, 'is required').max(200);

export const BACKEND_LINK_ENDPOINTS = {
  backendMagicLinksLoginOrSignup: endpoint<BackendLoginOrSignupResult>()({
    method: 'POST',
    path: '/v1/b2b/magic_links/email/login_or_signup',
    credential: 'secret',
    summary:
      'E-mails a login link to a member, or a sign-up link to an invited member or someone who may join by e-mail domain (created pending) (§7.1).',
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      login_redirect_url: f.url.optional(),
      signup_redirect_url: f.url.optional(),
      pkce_code_challenge: f.pkceChallenge.optional(),
      login_template_id: f.templateId.optional(),
      signup_template_id: f.templateId.optional(),
      locale: f.locale.optional(),
    }),
  }),
  backendMagicLinksAuthenticate: endpoint<BackendMagicLinkAuthenticateResult>()({
    method: 'POST',
    path: '/v1/b2b/magic_links/authenticate',
    credential: 'secret',
    summary: 'Redeems a login, sign-up or invitation link once: result AM (§7.1).',
    body: z.object({
      magic_links_token: f.id,
      pkce_code_verifier: f.pkceVerifier.optional(),
      session_token: f.id.optional(),
      session_jwt: f.text.max(8192).optional(),
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      session_custom_claims: metadata.optional(),
      locale: f.locale.optional(),
      intermediate_session_token: f.ist,
    }),
  }),
  backendMagicLinksDiscoverySend: endpoint<Ack>()({
    method: 'POST',
    path: '/v1/b2b/magic_links/email/discovery/send',
    credential: 'secret',
    summary:
      'E-mails a discovery link, the same whether or not the address belongs to anyone (§7.1).',
    body: z.object({
      email_address: f.email,
      discovery_redirect_url: f.url.optional(),
      pkce_code_challenge: f.pkceChallenge.optional(),
      login_template_id: f.templateId.optional(),
      locale: f.locale.optional(),
    }),
  }),
  backendMagicLinksDiscoveryAuthenticate: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/v1/b2b/magic_links/discovery/authenticate',
    credential: 'secret',
    summary:
      'Redeems a discovery link once: an intermediate session token and the organizations its address reaches (§7.1, §7.3).',
    body: z.object({
      discovery_magic_links_token: f.id,
      pkce_code_verifier: f.pkceVerifier.optional(),
    }),
  }),
  backendPasswordsResetStart: endpoint<BackendResetStartResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/email/reset/start',
    credential: 'secret',
    summary: 'E-mails a member a single-use password reset link (§7.2).',
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      reset_password_redirect_url: f.url.optional(),
      reset_password_expiration_minutes: z
        .number()
        .int('must be an integer')
        .min(5, 'must be at least 5')
        .max(10_080, 'must be at most 10080')
        .optional(),
      code_challenge: f.pkceChallenge.optional(),
      login_redirect_url: f.url.optional(),
      locale: f.locale.optional(),
      reset_password_template_id: f.templateId.optional(),
    }),
  }),
  backendPasswordsReset: endpoint<BackendPasswordResetResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/email/reset',
    credential: 'secret',
    summary:
      "Sets a new password with a reset link, once, ending the member's sessions: result AM with a new session (§7.2).",
    body: z.object({
      password_reset_token: f.id,
      password: f.password,
      session_token: f.id.optional(),
      session_jwt: f.text.max(8192).optional(),
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      code_verifier: f.pkceVerifier.optional(),
      session_custom_claims: metadata.optional(),
      locale: f.locale.optional(),
      intermediate_session_token: f.ist,
    }),
  }),
  backendDiscoveryOrganizations: endpoint<DiscoveryOrganizationsResult>()({
    method: 'POST',
    path: '/v1/b2b/discovery/organizations',
    credential: 'secret',
    summary:
      'Lists the organizations the address of an intermediate session token or a session reaches (§7.3).',
    body: z.object({
      intermediate_session_token: f.ist,
      session_token: f.id.optional(),
      session_jwt: f.text.max(8192).optional(),
    }),
  }),
  backendDiscoveryOrganizationsCreate: endpoint<AuthResult>()({
    method: 'POST',
    path: '/v1/b2b/discovery/organizations/create',
    credential: 'secret',
    summary:
      'Creates an organization with the intermediate session token’s member as its admin: result AM (§7.3).',
    body: z.object({
      intermediate_session_token: requiredIst,
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      session_custom_claims: metadata.optional(),
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
  backendDiscoveryExchange: endpoint<AuthResult>()({
    method: 'POST',
    path: '/v1/b2b/discovery/intermediate_sessions/exchange',
    credential: 'secret',
    summary: 'Enters an organization with an intermediate session token: result AM (§7.3).',
    body: z.object({
      intermediate_session_token: requiredIst,
      organization_id: f.id,
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      session_custom_claims: metadata.optional(),
      locale: f.locale.optional(),
      telemetry_id: z.string().max(256).optional(),
    }),
  }),
} as const;
