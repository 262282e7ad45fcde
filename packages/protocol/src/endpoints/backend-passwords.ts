/**
 * The password calls of the management API (`/v1/b2b/passwords/*`), shaped as the hosted
 * provider's backend SDK sends them: migrating a password hash from another system, signing a
 * member in for a host backend (in one organization or in discovery), changing a password with
 * the current one or a session, and the strength check.
 */
import { z } from 'zod';
import type {
  Ack,
  AuthResult,
  DiscoveryResult,
  FullSessionResult,
  PasswordStrengthResult,
} from '../api.js';
import type { Member, Organization } from '../entities.js';
import { DEFAULT_SESSION_DURATION_MINUTES } from '../constants.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** The hash types a migration takes, spelled as the provider's SDK spells them. */
export const MIGRATE_HASH_TYPES = [
  'bcrypt',
  'md_5',
  'argon_2i',
  'argon_2id',
  'sha_1',
  'sha_512',
  'scrypt',
  'phpass',
  'pbkdf_2',
] as const;

/** The config field each hash type of a migration takes; the types not listed take none. */
export const MIGRATE_HASH_CONFIG = {
  md_5: 'md_5_config',
  sha_1: 'sha_1_config',
  sha_512: 'sha_512_config',
  argon_2i: 'argon_2_config',
  argon_2id: 'argon_2_config',
  scrypt: 'scrypt_config',
  pbkdf_2: 'pbkdf_2_config',
} as const satisfies Partial<Record<(typeof MIGRATE_HASH_TYPES)[number], `${string}_config`>>;

/**
 * What `passwords/email/require_reset` answers: the member whose password must now be reset, and
 * its organization, when the call named one member; nothing more when it named an address
 * across organizations.
 */
export interface PasswordRequireResetResult extends Ack {
  member_id?: string;
  member?: Member;
  organization?: Organization;
}

/** What `passwords/migrate` answers. */
export interface PasswordMigrateResult extends Ack {
  member_id: string;
  /** True when the call created the member, false when it set an existing member's password. */
  member_created: boolean;
  member: Member;
  organization: Organization;
}

const whole = z.number().int('must be an integer');
const salt = z.string().max(256);
/** Salts written before and after the password (`md_5_config`, `sha_1_config`, …). */
const saltsAround = z.object({
  prepend_salt: salt.optional(),
  append_salt: salt.optional(),
});
const metadata = z.record(z.string().max(256), z.unknown());

export const BACKEND_PASSWORD_ENDPOINTS = {
  migratePassword: endpoint<PasswordMigrateResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/migrate',
    credential: 'secret',
    summary:
      'Creates or updates a member with a password hash from another system (bcrypt, scrypt, argon2, PBKDF2, phpass, salted MD5/SHA); replaced by argon2id at their next sign-in.',
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      hash: f.text.max(1024),
      hash_type: z.enum(MIGRATE_HASH_TYPES),
      md_5_config: saltsAround.optional(),
      sha_1_config: saltsAround.optional(),
      sha_512_config: saltsAround.optional(),
      argon_2_config: z
        .object({
          salt,
          iteration_amount: whole,
          memory: whole,
          threads: whole,
          key_length: whole,
        })
        .optional(),
      scrypt_config: z
        .object({
          salt,
          n_parameter: whole,
          r_parameter: whole,
          p_parameter: whole,
          key_length: whole,
        })
        .optional(),
      pbkdf_2_config: z
        .object({
          salt,
          iteration_amount: whole,
          key_length: whole,
          algorithm: z.enum(['', 'sha256', 'sha512']).optional(),
        })
        .optional(),
      name: z.string().max(256).optional(),
      trusted_metadata: metadata.optional(),
      untrusted_metadata: metadata.optional(),
      roles: z.array(z.string().min(1).max(64)).max(50).optional(),
      preserve_existing_sessions: z.boolean().optional(),
      mfa_phone_number: z.string().max(64).optional(),
      set_phone_number_verified: z.boolean().optional(),
      external_id: z.string().max(128).optional(),
    }),
  }),
  backendPasswordsAuthenticate: endpoint<AuthResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/authenticate',
    credential: 'secret',
    summary:
      "Signs a member in with e-mail and password for a host backend: result AM (§7.2), without the browser's per-IP limit.",
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      password: f.password,
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      session_token: f.id.optional(),
      session_jwt: f.text.max(8192).optional(),
      session_custom_claims: metadata.optional(),
      locale: f.locale.optional(),
      intermediate_session_token: f.ist,
      // Device fingerprinting: accepted so calls written for the provider pass; not used.
      telemetry_id: z.string().max(256).optional(),
    }),
  }),
  backendPasswordsDiscoveryAuthenticate: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/discovery/authenticate',
    credential: 'secret',
    summary:
      "Checks an e-mail and password against every organization of the address for a host backend: result DR (§7.2, §7.3), without the browser's per-IP limit.",
    body: z.object({ email_address: f.email, password: f.password }),
  }),
  backendPasswordsResetExisting: endpoint<AuthResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/existing_password/reset',
    credential: 'secret',
    summary:
      "Replaces a member's password given the current one, ending the member's sessions: result AM with a new session (§7.2).",
    body: z.object({
      organization_id: f.id,
      email_address: f.email,
      existing_password: f.password,
      new_password: f.password,
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      session_token: f.id.optional(),
      session_jwt: f.text.max(8192).optional(),
      session_custom_claims: metadata.optional(),
      locale: f.locale.optional(),
      telemetry_id: z.string().max(256).optional(),
    }),
  }),
  backendPasswordsResetSession: endpoint<FullSessionResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/session/reset',
    credential: 'secret',
    summary:
      "Sets the password of a session's member, ending the member's other sessions: result F for that session (§7.2).",
    body: z.object({
      organization_id: f.id,
      password: f.password,
      session_token: f.id.optional(),
      session_jwt: f.text.max(8192).optional(),
      session_duration_minutes: f.sessionDuration.optional(),
      session_custom_claims: metadata.optional(),
      locale: f.locale.optional(),
      telemetry_id: z.string().max(256).optional(),
    }),
  }),
  backendPasswordsRequireReset: endpoint<PasswordRequireResetResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/email/require_reset',
    credential: 'secret',
    summary:
      "Requires a new password by e-mail: the member's password (or, with the address alone, every password of the address in the project) signs in no more until reset (§7.2).",
    body: z.object({
      email_address: f.email,
      organization_id: f.id.optional(),
      member_id: f.id.optional(),
    }),
  }),
  backendPasswordsStrengthCheck: endpoint<PasswordStrengthResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/strength_check',
    credential: 'secret',
    summary: "Scores a password against the project's policy and breach lists (§7.2).",
    body: z.object({
      password: z.string().max(256),
      email_address: z.string().max(254).optional(),
    }),
  }),
} as const;
