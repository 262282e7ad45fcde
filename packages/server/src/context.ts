/** Everything a service needs at run time, built once per server and passed explicitly. */
import type { Kysely } from 'kysely';
import type { ResolvedConfig } from './config.js';
import type { SigningKeys } from './crypto/signing-keys.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Mailer } from './delivery/email.js';
import type { SmsProvider } from './delivery/sms.js';
import type { ProjectService } from './products/projects/service.js';
import type { Database } from './store/schema.js';

/** A logger with pino's call shape, so services stay independent of the HTTP framework. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Shared run-time dependencies of the services. */
export interface Context {
  db: Kysely<Database>;
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
}

/** A database handle or an open transaction: services accept either. */
export type Db = Kysely<Database>;

/** The current time as an RFC 3339 UTC string. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
