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
  /** SMS code sends to one phone number per hour. */
  smsSendsPerNumberPerHour: number;
  /** SMS code sends for one member per hour. */
  smsSendsPerMemberPerHour: number;
  /** TOTP and recovery-code attempts for one member per hour (successful ones included). */
  mfaAttemptsPerMemberPerHour: number;
  /**
   * Password sign-ins and existing-password resets from one IP per hour (successful ones
   * included): the per-member lockout stops guessing one account, this stops spraying many.
   */
  passwordAttemptsPerIpPerHour: number;
}

/** An HTTP SMS provider (see `httpSmsProvider`): `POST {url}` with `{to, from, body}`. */
export interface SmsConfig {
  url: string;
  /** Sent as `Authorization: Bearer {authToken}`. */
  authToken: string;
  /** The sender number or id. */
  from: string;
  /** How long to wait for the provider; default 10 000 ms. */
  timeoutMs?: number;
}

/** The brute-force lockout of password sign-in, per member. */
export interface PasswordLockoutConfig {
  /** Failed attempts that lock a member's password sign-in. */
  maxFailures: number;
  /** The window, opened by the first failure, in which they count; the lock lasts until it ends. */
  windowMinutes: number;
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
  /** SMS provider; when absent, text messages go to the dev outbox. */
  sms?: SmsConfig | null;
  /** 32-byte key (base64 or hex) for encryption at rest; see `loadServerKey` for the fallback. */
  serverKey?: string;
  /** Serve the dev inbox at /_dev/inbox; default: true when no SMTP is configured. */
  devInbox?: boolean;
  logger?: boolean;
  /** Trust `X-Forwarded-For` for the client IP (rate limits) when behind a reverse proxy; default false. */
  trustProxy?: boolean;
  /** Rate limit overrides (for tests). */
  rateLimits?: Partial<RateLimitConfig>;
  /**
   * Base URL of a k-anonymity breached-password range API (`GET {url}/range/{prefix}`), e.g.
   * `https://api.pwnedpasswords.com`; default none: only the offline common-password list.
   */
  passwordBreachRangeUrl?: string | null;
  /** Password lockout overrides; default 10 failures within 60 minutes. */
  passwordLockout?: Partial<PasswordLockoutConfig>;
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
  sms: SmsConfig | null;
  serverKey: string | undefined;
  devInbox: boolean;
  logger: boolean;
  trustProxy: boolean;
  rateLimits: RateLimitConfig;
  passwordBreachRangeUrl: string | null;
  passwordLockout: PasswordLockoutConfig;
  now: () => number;
}

export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
export const DEFAULT_EMAIL_FROM = 'Gatehouse <no-reply@gatehouse.local>';
export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  sendsPerEmailPerHour: 10,
  sendsPerIpPerHour: 100,
  searchesPerIpPerMinute: 120,
  smsSendsPerNumberPerHour: 10,
  smsSendsPerMemberPerHour: 10,
  mfaAttemptsPerMemberPerHour: 60,
  passwordAttemptsPerIpPerHour: 1000,
};
export const DEFAULT_PASSWORD_LOCKOUT: PasswordLockoutConfig = {
  maxFailures: 10,
  windowMinutes: 60,
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
    sms: config.sms ?? null,
    serverKey: config.serverKey,
    devInbox: config.devInbox ?? smtp === null,
    logger: config.logger ?? false,
    trustProxy: config.trustProxy ?? false,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...config.rateLimits },
    passwordBreachRangeUrl: config.passwordBreachRangeUrl ?? null,
    passwordLockout: { ...DEFAULT_PASSWORD_LOCKOUT, ...config.passwordLockout },
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
 * `TRUST_PROXY`, `PASSWORD_BREACH_RANGE_URL`, `SMS_PROVIDER_URL`, `SMS_PROVIDER_TOKEN`,
 * `SMS_FROM`.
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
  if (env.PASSWORD_BREACH_RANGE_URL) config.passwordBreachRangeUrl = env.PASSWORD_BREACH_RANGE_URL;
  if (env.SMS_PROVIDER_URL) {
    config.sms = {
      url: env.SMS_PROVIDER_URL,
      authToken: env.SMS_PROVIDER_TOKEN ?? '',
      from: env.SMS_FROM ?? '',
    };
  }
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
