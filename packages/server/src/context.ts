/** Everything a service needs at run time, built once per server and passed explicitly. */
import type { ResolvedConfig } from './config.js';
import type { SigningKeys } from './crypto/signing-keys.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Mailer } from './delivery/email.js';
import type { SmsProvider } from './delivery/sms.js';
import type { ProjectService } from './tenancy/projects/service.js';
import type { Db } from './store/schema.js';

// The handle and the timestamp format belong to the store; delivery and store code import them
// from there, so that nothing below the context depends on it.
export { isoAt, type Db } from './store/schema.js';

/** A logger with pino's call shape, so services stay independent of the HTTP framework. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Shared run-time dependencies of the services. */
export interface Context {
  db: Db;
  config: ResolvedConfig;
  now(): number;
  box: SecretBox;
  keys: SigningKeys;
  mailer: Mailer;
  /** The SMS provider, or null to write text messages to the dev outbox. */
  sms: SmsProvider | null;
  /** The key of SMS code MACs, derived from the server key (never the encryption key itself). */
  otpKey: Buffer;
  projects: ProjectService;
  log: Logger;
  /** Where the migration table lives (PostgreSQL schema), for readiness checks. */
  migrationSchema: string | undefined;
}
