/** Server configuration: the public `ServerConfig`, its documented defaults, and reading it from env. */
import { DEFAULT_DATABASE_URL } from './store/db.js';

/** SMTP settings for real e-mail delivery. */
export interface SmtpConfig {
  host: string;
  port: number;
  secure?: boolean;
  user?: string;
  pass?: string;
}

/** Limits on abuse-prone anonymous endpoints. */
export interface RateLimitConfig {
  /** Magic-link sends to one address per hour. */
  sendsPerEmailPerHour: number;
  /** Magic-link sends from one IP per hour. */
  sendsPerIpPerHour: number;
  /** Anonymous organization and member searches from one IP per minute. */
  searchesPerIpPerMinute: number;
}

/** Options of {@link createServer}; every field has a default. */
export interface ServerConfig {
  /** `sqlite:./data/gatehouse.db` (default), `sqlite::memory:`, or `postgres://…`. */
  databaseUrl?: string;
  /** Public origin used in e-mail links, JWT `iss` and error_url; default `http://localhost:3000`. */
  publicUrl?: string;
  /** SMTP settings; when absent, messages go to the dev outbox. */
  smtp?: SmtpConfig | null;
  /** From address of e-mails; default `Gatehouse <no-reply@gatehouse.local>`. */
  emailFrom?: string;
  /** 32-byte key (base64 or hex) for encryption at rest; see `loadServerKey` for the fallback. */
  serverKey?: string;
  /** Serve the dev inbox at /_dev/inbox; default: true when no SMTP is configured. */
  devInbox?: boolean;
  logger?: boolean;
  /** Trust `X-Forwarded-For` for the client IP (rate limits) when behind a reverse proxy; default false. */
  trustProxy?: boolean;
  /** Rate limit overrides (for tests). */
  rateLimits?: Partial<RateLimitConfig>;
  /** Clock override for tests (ms since epoch). */
  now?: () => number;
}

/** A configuration with every default applied. */
export interface ResolvedConfig {
  databaseUrl: string;
  publicUrl: string;
  docsBase: string;
  smtp: SmtpConfig | null;
  emailFrom: string;
  emailDomain: string;
  serverKey: string | undefined;
  devInbox: boolean;
  logger: boolean;
  trustProxy: boolean;
  rateLimits: RateLimitConfig;
  now: () => number;
}

export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
export const DEFAULT_EMAIL_FROM = 'Gatehouse <no-reply@gatehouse.local>';
export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  sendsPerEmailPerHour: 10,
  sendsPerIpPerHour: 100,
  searchesPerIpPerMinute: 120,
};

/** Applies the defaults. */
export function resolveConfig(config: ServerConfig = {}): ResolvedConfig {
  const publicUrl = (config.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
  const emailFrom = config.emailFrom ?? DEFAULT_EMAIL_FROM;
  const smtp = config.smtp ?? null;
  return {
    databaseUrl: config.databaseUrl ?? DEFAULT_DATABASE_URL,
    publicUrl,
    docsBase: `${publicUrl}/docs`,
    smtp,
    emailFrom,
    emailDomain: emailDomainOf(emailFrom),
    serverKey: config.serverKey,
    devInbox: config.devInbox ?? smtp === null,
    logger: config.logger ?? false,
    trustProxy: config.trustProxy ?? false,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...config.rateLimits },
    now: config.now ?? Date.now,
  };
}

function emailDomainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/**
 * Reads the configuration from environment variables: `DATABASE_URL`, `PUBLIC_URL`, `SMTP_HOST`,
 * `SMTP_PORT`, `SMTP_SECURE`, `SMTP_USER`, `SMTP_PASS`, `EMAIL_FROM`, `GATEHOUSE_SERVER_KEY`,
 * `TRUST_PROXY`.
 * `PORT` is left to the caller.
 *
 * @example
 * const app = await createServer({ ...configFromEnv(), logger: true });
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const config: ServerConfig = {};
  if (env.DATABASE_URL) config.databaseUrl = env.DATABASE_URL;
  if (env.PUBLIC_URL) config.publicUrl = env.PUBLIC_URL;
  if (env.EMAIL_FROM) config.emailFrom = env.EMAIL_FROM;
  if (env.GATEHOUSE_SERVER_KEY) config.serverKey = env.GATEHOUSE_SERVER_KEY;
  if (env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1') config.trustProxy = true;
  if (env.SMTP_HOST) {
    const secure = env.SMTP_SECURE === 'true' || env.SMTP_SECURE === '1';
    const smtp: SmtpConfig = {
      host: env.SMTP_HOST,
      port: env.SMTP_PORT ? Number(env.SMTP_PORT) : secure ? 465 : 587,
      secure,
    };
    if (env.SMTP_USER) smtp.user = env.SMTP_USER;
    if (env.SMTP_PASS) smtp.pass = env.SMTP_PASS;
    config.smtp = smtp;
  }
  return config;
}
