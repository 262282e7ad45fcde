// The credential tables: passwords, TOTP registrations with their recovery codes, SMS codes, and
// the counters of failed password and second-factor attempts.
import type { Generated } from 'kysely';
import type { Columns, Flag, TableColumns, Timestamp } from './columns.js';

/** A member's password hash (argon2id, or an imported format re-hashed at the next login). */
export interface PasswordsTable {
  id: string;
  project_id: string;
  member_id: string;
  hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 1 when the project required a reset: the password signs in no more until replaced. */
  reset_required?: Flag;
}

const passwordsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  member_id: 'text not null',
  hash: 'text not null',
  created_at: 'text not null',
  updated_at: 'text not null',
  reset_required: 'integer not null',
} satisfies Columns<PasswordsTable>;

/** An authenticator-app registration; pending until its first code verifies. */
export interface TotpRegistrationsTable {
  id: string;
  project_id: string;
  member_id: string;
  /** The base32 secret, encrypted with the server key. */
  secret_encrypted: string;
  /** The last time step accepted, so a code is never accepted twice. */
  last_used_step: number | null;
  verified_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

const totpRegistrationsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  member_id: 'text not null',
  secret_encrypted: 'text not null',
  last_used_step: 'integer',
  verified_at: 'text',
  created_at: 'text not null',
  expires_at: 'text not null',
} satisfies Columns<TotpRegistrationsTable>;

/** One recovery code of a TOTP registration, hashed; single use. */
export interface RecoveryCodesTable {
  id: string;
  project_id: string;
  member_id: string;
  totp_registration_id: string;
  code_hash: string;
  /** The code sealed with the server key, for showing the remaining codes again. */
  code_encrypted: Generated<string>;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

const recoveryCodesColumns = {
  id: 'text not null',
  project_id: 'text not null',
  member_id: 'text not null',
  totp_registration_id: 'text not null',
  code_hash: 'text not null',
  code_encrypted: 'text not null',
  used_at: 'text',
  created_at: 'text not null',
} satisfies Columns<RecoveryCodesTable>;

/** A one-time code sent by SMS, keyed (HMAC) with the server key; attempts are capped. */
export interface OtpCodesTable {
  id: string;
  project_id: string;
  member_id: string;
  phone_number: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

const otpCodesColumns = {
  id: 'text not null',
  project_id: 'text not null',
  member_id: 'text not null',
  phone_number: 'text not null',
  code_hash: 'text not null',
  attempts: 'integer not null',
  created_at: 'text not null',
  expires_at: 'text not null',
  used_at: 'text',
} satisfies Columns<OtpCodesTable>;

/** Failed password attempts of a member in the current lockout window (which starts at the first). */
export interface PasswordFailuresTable {
  member_id: string;
  project_id: string;
  failures: number;
  window_start: Timestamp;
}

const passwordFailuresColumns = {
  member_id: 'text not null',
  project_id: 'text not null',
  failures: 'integer not null',
  window_start: 'text not null',
} satisfies Columns<PasswordFailuresTable>;

/**
 * Wrong second-factor codes of a member in a row, per factor kind (`totp`, which recovery codes
 * share, or `sms_otp`); at the configured bound the factor is locked until a reset.
 */
export interface FactorFailuresTable {
  member_id: string;
  factor: string;
  project_id: string;
  /** Attempts reserved since the last success; each is counted before its code is checked. */
  failures: number;
  updated_at: Timestamp;
}

const factorFailuresColumns = {
  member_id: 'text not null',
  factor: 'text not null',
  project_id: 'text not null',
  failures: 'integer not null',
  updated_at: 'text not null',
} satisfies Columns<FactorFailuresTable>;

/** The tables of this area, by name (part of `Database`). */
export interface CredentialTables {
  passwords: PasswordsTable;
  totp_registrations: TotpRegistrationsTable;
  recovery_codes: RecoveryCodesTable;
  otp_codes: OtpCodesTable;
  password_failures: PasswordFailuresTable;
  factor_failures: FactorFailuresTable;
}

/** Their columns as the migrations create them. */
export const CREDENTIAL_COLUMNS = {
  passwords: passwordsColumns,
  totp_registrations: totpRegistrationsColumns,
  recovery_codes: recoveryCodesColumns,
  otp_codes: otpCodesColumns,
  password_failures: passwordFailuresColumns,
  factor_failures: factorFailuresColumns,
} satisfies TableColumns<CredentialTables>;
