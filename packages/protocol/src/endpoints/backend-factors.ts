/**
 * The session and factor calls of the management API that the hosted provider's backend SDK
 * makes: `sessions.get` and `exchange`, `otps.sms.send` and `authenticate`, `totps.create` and
 * `authenticate`, `recoveryCodes.get`, `rotate` and `recover`, `sso.authenticate` and
 * `oauth.authenticate`, with its paths, fields and answers. The factor calls name the member by
 * `organization_id` and `member_id`; an `intermediate_session_token`, `session_token` or
 * `session_jwt` beside them is held to the browser API's rules (docs/protocol.md §9).
 */
import { z } from 'zod';
import type { Ack, AuthResult, FullSessionResult, RecoveryCodesRecoverResult } from '../api.js';
import { DEFAULT_SESSION_DURATION_MINUTES } from '../constants.js';
import type { Member, MemberSession, Organization } from '../entities.js';
import type { OAuthProviderValues } from '../oauth.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** The member a factor call is about, as every answer of the provider's backend names it. */
export interface BackendFactorMemberResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** `sessions.get`: the member's live sessions, newest first. */
export interface BackendSessionsResult extends Ack {
  member_sessions: MemberSession[];
}

/** `totps.create`: a pending registration, its QR code (a PNG data URL) and recovery codes. */
export interface BackendTotpCreateResult extends BackendFactorMemberResult {
  totp_registration_id: string;
  secret: string;
  qr_code: string;
  recovery_codes: string[];
}

/** `recoveryCodes.get` and `rotate`: the member's unused codes. */
export interface BackendRecoveryCodesResult extends BackendFactorMemberResult {
  recovery_codes: string[];
}

/** `sso.authenticate`: result AM (§7.2) with the provider's extra names. */
export type BackendSsoAuthenticateResult = AuthResult & {
  organization_id: string;
  /** Whether other sessions were ended; never: false. */
  reset_session: false;
};

/** `oauth.authenticate`: result AM with the provider's tokens and who the provider says it is. */
export type BackendOAuthAuthenticateResult = AuthResult & {
  organization_id: string;
  provider_type: string;
  provider_subject: string;
  provider_values: OAuthProviderValues;
  reset_sessions: false;
};

const metadata = z.record(z.string().max(256), z.unknown());
/** A session named by its token or its JWT. */
const sessionProof = { session_token: f.id.optional(), session_jwt: f.text.max(8192).optional() };
/** How a backend names the caller of a factor call: the member, and what they have proven. */
const memberCaller = {
  organization_id: f.id,
  member_id: f.id,
  intermediate_session_token: f.ist,
  ...sessionProof,
};
/** Fields the provider's SDK sends that Gatehouse accepts without using (device fingerprints). */
const ignored = { telemetry_id: z.string().max(256).optional() };
/** Custom claims are refused when not empty: sessions carry none. */
const sessionFields = {
  session_duration_minutes: f.sessionDuration.optional(),
  session_custom_claims: metadata.optional(),
};
/** The fields of a texted or authenticator-app code's check. */
const codeCheck = {
  ...memberCaller,
  code: f.code,
  set_mfa_enrollment: f.mfaEnrollment.optional(),
  set_default_mfa: z.boolean().optional(),
  ...sessionFields,
  ...ignored,
};
/** What the redemption of an SSO or OAuth sign-in's token takes beside the token. */
const redeemFields = {
  pkce_code_verifier: f.pkceVerifier.optional(),
  ...sessionProof,
  session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
  session_custom_claims: metadata.optional(),
  locale: f.locale.optional(),
  intermediate_session_token: f.ist,
  ...ignored,
};

/** The query of `GET /v1/b2b/sessions`: the member whose sessions to list. */
export const sessionsGetFields = z.object({ organization_id: f.id, member_id: f.id });

export const BACKEND_FACTOR_ENDPOINTS = {
  backendSessionsGet: endpoint<BackendSessionsResult>()({
    method: 'GET',
    path: '/v1/b2b/sessions',
    credential: 'secret',
    summary:
      "A member's live sessions, by the query parameters organization_id and member_id (404 for a member of another organization).",
    body: null,
  }),
  backendSessionsExchange: endpoint<AuthResult>()({
    method: 'POST',
    path: '/v1/b2b/sessions/exchange',
    credential: 'secret',
    summary:
      "Moves a session into another organization the member's address belongs to: result AM (§7.5), MFA as that organization requires.",
    body: z
      .object({
        organization_id: f.id,
        ...sessionProof,
        session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
        session_custom_claims: metadata.optional(),
        locale: f.locale.optional(),
        ...ignored,
      })
      .refine((b) => b.session_token !== undefined || b.session_jwt !== undefined, {
        message: 'session_token or session_jwt is required',
        path: ['session_token'],
      }),
  }),
  backendSmsSend: endpoint<BackendFactorMemberResult>()({
    method: 'POST',
    path: '/v1/b2b/otps/sms/send',
    credential: 'secret',
    summary:
      "Texts a one-time code to the member's MFA phone number, or to mfa_phone_number (stored unverified until a code from it passes).",
    body: z.object({
      ...memberCaller,
      mfa_phone_number: z.string().max(64).optional(),
      locale: f.locale.optional(),
    }),
  }),
  backendSmsAuthenticate: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/v1/b2b/otps/sms/authenticate',
    credential: 'secret',
    summary:
      "Checks a texted code for the member of an intermediate session token or session: result F (§7.7), the browser's lockout and single use.",
    body: z.object(codeCheck),
  }),
  backendTotpCreate: endpoint<BackendTotpCreateResult>()({
    method: 'POST',
    path: '/v1/b2b/totp',
    credential: 'secret',
    summary:
      'Starts an authenticator-app registration for the member, with ten recovery codes; pending until a code from it passes.',
    body: z.object({
      ...memberCaller,
      expiration_minutes: f.totpExpiration.optional(),
    }),
  }),
  backendTotpAuthenticate: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/v1/b2b/totp/authenticate',
    credential: 'secret',
    summary:
      'Checks an authenticator-app code for the member of an intermediate session token or session: result F (§7.7); each code works once.',
    body: z.object(codeCheck),
  }),
  backendRecoveryCodesGet: endpoint<BackendRecoveryCodesResult>()({
    method: 'GET',
    path: '/v1/b2b/recovery_codes/:organization_id/:member_id',
    credential: 'secret',
    summary: "The member's unused recovery codes.",
    body: null,
  }),
  backendRecoveryCodesRotate: endpoint<BackendRecoveryCodesResult>()({
    method: 'POST',
    path: '/v1/b2b/recovery_codes/rotate',
    credential: 'secret',
    summary: "Replaces the member's recovery codes with ten new ones.",
    body: z.object({ organization_id: f.id, member_id: f.id }),
  }),
  backendRecoveryCodesRecover: endpoint<RecoveryCodesRecoverResult>()({
    method: 'POST',
    path: '/v1/b2b/recovery_codes/recover',
    credential: 'secret',
    summary:
      'Passes MFA with a recovery code for the member of an intermediate session token or session: result F (§7.7); each code works once.',
    body: z.object({
      ...memberCaller,
      recovery_code: f.text.max(64),
      ...sessionFields,
      ...ignored,
    }),
  }),
  backendSsoAuthenticate: endpoint<BackendSsoAuthenticateResult>()({
    method: 'POST',
    path: '/v1/b2b/sso/authenticate',
    credential: 'secret',
    summary: 'Redeems the sso_token an SSO sign-in returned with: result AM (§7.6).',
    body: z.object({ sso_token: f.id, ...redeemFields }),
  }),
  backendOAuthAuthenticate: endpoint<BackendOAuthAuthenticateResult>()({
    method: 'POST',
    path: '/v1/b2b/oauth/authenticate',
    credential: 'secret',
    summary:
      "Redeems the oauth_token a Google or Microsoft sign-in returned with: result AM (§7.6) and the provider's tokens.",
    body: z.object({ oauth_token: f.id, ...redeemFields }),
  }),
} as const;
