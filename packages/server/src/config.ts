/**
 * Server configuration: the public `ServerConfig`, its documented defaults, and reading it from
 * env. Every environment variable is declared once, in `config/settings.ts`.
 */
export { configFromEnv } from './config/from-env.js';
export { resolveConfig } from './config/resolve.js';
export {
  DATABASE_URL,
  DEFAULT_EVENT_RETENTION_DAYS,
  DEFAULT_PUBLIC_URL,
  GATEHOUSE_SERVER_KEY,
  PUBLIC_URL,
  SETTINGS,
  type Setting,
} from './config/settings.js';
export type { ResolvedConfig, ServerConfig, SmsConfig, SmtpConfig } from './config/types.js';
