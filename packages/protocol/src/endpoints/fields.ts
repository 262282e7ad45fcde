/** Field schemas shared by the request bodies of the endpoint table. */
import { z } from 'zod';
import {
  INVITE_LINK_MAX_MINUTES,
  INVITE_LINK_MIN_MINUTES,
  SESSION_DURATION_MAX_MINUTES,
  SESSION_DURATION_MIN_MINUTES,
} from '../constants.js';
import { AUTH_METHODS, MFA_METHODS, type AuthMethod, type MfaMethod } from '../entities.js';

/** A non-empty string; its format is checked by the server so it can answer semantically. */
export const text = z.string().min(1, 'must not be empty');

/** `session_duration_minutes`: 5 minutes to a year (docs/protocol.md §14). */
export const sessionDuration = z
  .number()
  .int('must be an integer')
  .min(SESSION_DURATION_MIN_MINUTES, `must be at least ${SESSION_DURATION_MIN_MINUTES}`)
  .max(SESSION_DURATION_MAX_MINUTES, `must be at most ${SESSION_DURATION_MAX_MINUTES}`);

/**
 * An organization's `session_max_duration_minutes`: the bounds of `session_duration_minutes`, or
 * `null` for no limit of its own (docs/protocol.md §5).
 */
export const sessionMaxDuration = sessionDuration.nullable();

/** A PKCE challenge: unpadded base64url of a SHA-256 digest (docs/protocol.md §10). */
export const pkceChallenge = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url SHA-256 digest');

/** A PKCE verifier: 32 to 128 URL-safe characters, with no RFC 7636 minimum of 43. */
export const pkceVerifier = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{32,128}$/, 'must be 32 to 128 URL-safe characters');

export const email = text.max(254);

/**
 * The fields of an invitation (`magic_links/email/invite`, docs/protocol.md §7.1) that the SDK
 * and the management API share; the management API adds the organization and the metadata.
 */
export const inviteFields = {
  email_address: text.max(254),
  invite_redirect_url: z.string().max(2048).optional(),
  invite_template_id: z.string().max(200).optional(),
  name: z.string().max(256).optional(),
  roles: z.array(text.max(64)).max(50).optional(),
  invite_expiration_minutes: z
    .number()
    .int('must be an integer')
    .min(INVITE_LINK_MIN_MINUTES, `must be at least ${INVITE_LINK_MIN_MINUTES}`)
    .max(INVITE_LINK_MAX_MINUTES, `must be at most ${INVITE_LINK_MAX_MINUTES} (a week)`)
    .optional(),
};
export const id = text.max(200);
export const url = z.string().max(2048);
/**
 * A BCP 47 language tag such as `en`, `es` or `pt-BR` (docs/protocol.md §7): the language of the
 * e-mails and texts a call sends. A well-formed tag the server has no copy for means English.
 */
export const locale = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en, es or pt-BR');
export const templateId = z.string().max(200);
/** The IST a `T` call carries in its body; an unknown one is ignored or refused by the server. */
export const ist = z.string().max(200).optional();
/** Long enough for any passphrase; the bound keeps zxcvbn's and argon2's work per request small. */
export const password = text.max(256);
export const code = text.max(32);
export const slug = text.max(128);
export const organizationName = text.max(128);
export const domains = z.array(z.string().max(253)).max(100);
export const authMethods = z.array(z.enum(AUTH_METHODS as [AuthMethod, ...AuthMethod[]]));
export const mfaMethods = z.array(z.enum(MFA_METHODS as [MfaMethod, ...MfaMethod[]]));
export const mfaPolicy = z.enum(['OPTIONAL', 'REQUIRED_FOR_ALL']);
export const methodsChoice = z.enum(['ALL_ALLOWED', 'RESTRICTED']);
export const jitChoice = z.enum(['RESTRICTED', 'NOT_ALLOWED']);
export const ssoJitChoice = z.enum(['ALL_ALLOWED', 'RESTRICTED', 'NOT_ALLOWED']);
/**
 * The provider tenants an organization trusts (`oauth_tenant_jit_provisioning`): Google
 * Workspace domains (`hd`) and Microsoft Entra tenant ids (`tid`).
 */
export const allowedOAuthTenants = z
  .object({
    google: z
      .array(
        z
          .string()
          .max(253)
          .regex(/^[A-Za-z0-9.-]+\.[A-Za-z0-9-]+$/, 'must be a Google Workspace domain'),
      )
      .max(100)
      .optional(),
    microsoft: z
      .array(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a Microsoft tenant id (tid)'))
      .max(100)
      .optional(),
  })
  .strict();
export const mfaEnrollment = z.enum(['enroll', 'unenroll']);
/** `expiration_minutes` of an authenticator-app registration: a minute to a day. */
export const totpExpiration = z
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(1440, 'must be at most 1440');
