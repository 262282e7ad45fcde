/** Reading the configuration from environment variables, one row of the settings table at a time. */
import { SETTINGS } from './settings.js';
import type { ServerConfig, SmsConfig, SmtpConfig } from './types.js';

/**
 * `smtp` from the fields its variables set. It exists only with `SMTP_HOST`: without it the other
 * `SMTP_*` variables mean nothing. A new field needs no change here, only its row in the table.
 */
function smtpFrom(fields: Partial<SmtpConfig>): SmtpConfig | undefined {
  if (fields.host === undefined) return undefined;
  const secure = fields.secure ?? false;
  return { ...fields, host: fields.host, port: fields.port ?? (secure ? 465 : 587), secure };
}

/** `sms` from the fields its variables set; it exists only with `SMS_PROVIDER_URL`. */
function smsFrom(fields: Partial<SmsConfig>): SmsConfig | undefined {
  if (fields.url === undefined) return undefined;
  return { ...fields, url: fields.url, authToken: fields.authToken ?? '', from: fields.from ?? '' };
}

/**
 * Reads the configuration from the environment variables of the settings table
 * (`config/settings.ts`, listed by `gatehouse serve --help` and README.md). An empty variable
 * counts as unset. `PORT` is left to the caller. Values out of bounds are refused by
 * `resolveConfig` (and so by `createServer`), with the variable's name.
 *
 * @example
 * const app = await createServer({ ...configFromEnv(), logger: true });
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Each parser returns the type of its key (checked in settings.ts), so these records are the
  // config's.
  const config: Record<string, unknown> = {};
  const groups: Record<string, Record<string, unknown>> = {};
  for (const setting of SETTINGS) {
    const raw = env[setting.env];
    if (setting.path === null || !raw) continue;
    const value = setting.parse(raw);
    if (value === undefined) continue;
    const [key, field] = setting.path.split('.') as [string, string | undefined];
    if (field === undefined) config[key] = value;
    else (groups[key] ??= {})[field] = value;
  }
  const smtp = smtpFrom(groups.smtp ?? {});
  if (smtp) config.smtp = smtp;
  const sms = smsFrom(groups.sms ?? {});
  if (sms) config.sms = sms;
  return config;
}
