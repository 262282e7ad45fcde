/** Server configuration: the public `ServerConfig`, its documented defaults, and reading it from env. */
import { isIP } from 'node:net';
import type { LogDestination } from './http/logging.js';
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
   * included): the per-address throttle (`passwordThrottle`) stops guessing one account, this
   * stops spraying many.
   */
  passwordAttemptsPerIpPerHour: number;
  /**
   * Wrong second-factor codes in a row for one member and factor kind (TOTP with its recovery
   * codes; SMS) before that factor locks, across every window, until the member signs in again by
   * e-mail link or an administrator unlocks it (NIST SP 800-63B allows at most 100).
   */
  mfaFailuresBeforeLock: number;
  /** Telemetry batches (`POST /sdk/v1/events`) from one IP per minute. */
  eventBatchesPerIpPerMinute: number;
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

/**
 * Throttling of password guesses (sign-ins and existing-password resets), keyed by the
 * organization and the e-mail address typed, so that addresses of members and unknown ones are
 * treated alike. Each attempt is counted before the password is checked.
 */
export interface PasswordThrottleConfig {
  /** Attempts for one address from one client IP that need no wait; a right password starts over. */
  freeAttempts: number;
  /** The wait after those, in seconds; every further attempt from that IP doubles it. */
  initialDelaySeconds: number;
  /** The longest wait between two attempts for one address from one IP, in seconds. */
  maxDelaySeconds: number;
  /**
   * Failed attempts for one address from all IPs together per window: beyond it, password
   * sign-in for the address pauses until the window ends or the password is changed, and the
   * member (if there is one) is e-mailed a login link.
   */
  attemptsPerEmail: number;
  /** The window of `attemptsPerEmail`, and how long a quiet address-and-IP counter is remembered. */
  windowMinutes: number;
}

/** Options of {@link createServer}; every field has a default. */
export interface ServerConfig {
  /** `sqlite:./data/gatehouse.db` (default), `sqlite::memory:`, or `postgres://…`. */
  databaseUrl?: string;
  /** Public origin used in e-mail links, JWT `iss` and error_url; default `http://localhost:3000`. */
  publicUrl?: string;
  /**
   * SMTP settings. Required to start a server unless `devInbox` is on, which keeps messages in
   * the dev outbox instead.
   */
  smtp?: SmtpConfig | null;
  /** From address of e-mails; default `Gatehouse <no-reply@gatehouse.local>`. */
  emailFrom?: string;
  /** SMS provider; when absent, text messages go to the dev outbox. */
  sms?: SmsConfig | null;
  /** 32-byte key (base64 or hex) for encryption at rest; see `loadServerKey` for the fallback. */
  serverKey?: string;
  /**
   * Serve the dev inbox at /_dev/inbox (every e-mail and text message, links and codes included);
   * default false. Only for development: the server refuses to start with it when a project is
   * live or `publicUrl` is https, and it answers only loopback clients.
   */
  devInbox?: boolean;
  /**
   * Request and error logs: false (default) for none, true for JSON lines on stdout, or a
   * destination to write them to. Secrets are redacted either way (docs/security.md).
   */
  logger?: boolean | LogDestination;
  /**
   * The reverse proxies in front of the server, whose `X-Forwarded-For` names the client IP (rate
   * limits): how many hops (`1`), or their addresses and CIDR ranges (`['10.0.0.0/8']`, or the
   * same comma-separated). Default false: the socket's address. A blanket `true` is refused, as
   * it would let any client choose its address.
   */
  trustProxy?: TrustProxy;
  /** Rate limit overrides (for tests). */
  rateLimits?: Partial<RateLimitConfig>;
  /**
   * Base URL of a k-anonymity breached-password range API (`GET {url}/range/{prefix}`), e.g.
   * `https://api.pwnedpasswords.com`; default none: only the offline common-password list.
   */
  passwordBreachRangeUrl?: string | null;
  /**
   * Where every captcha token is verified (a `siteverify`-compatible endpoint), instead of the
   * project's provider's own: a proxy, or a stand-in in tests. Default: the provider's.
   */
  captchaVerifyUrl?: string | null;
  /** How long a captcha provider may take to answer; default 5000 ms, then 503. */
  captchaTimeoutMs?: number;
  /**
   * Password guessing overrides; default 5 free attempts per address and IP, then waits of 1 s
   * doubling up to 15 minutes, and at most 100 failed attempts per address per 60 minutes.
   */
  passwordThrottle?: Partial<PasswordThrottleConfig>;
  /**
   * The absolute lifetime of a session in minutes, counted from its start: refreshes with
   * `session_duration_minutes` never extend it past this; default 43 200 (30 days).
   */
  sessionMaxLifetimeMinutes?: number;
  /** Days telemetry events are kept (the housekeeping timer deletes older ones); default 30. */
  eventRetentionDays?: number;
  /**
   * The largest request body accepted, in bytes; default 262 144 (256 KiB). Larger bodies are
   * answered 400 before they are parsed. Routes that need more keep their own limit (SAML ACS and
   * SSO metadata, 2 MB).
   */
  bodyLimitBytes?: number;
  /**
   * How long a client may take to send its whole request, headers and body, in milliseconds
   * (Node's `requestTimeout`); default 30 000. Slower clients are answered 408 and disconnected,
   * so that trickled requests cannot hold connections open. 0 turns the limit off (when a proxy
   * in front enforces one).
   */
  requestTimeoutMs?: number;
  /**
   * How long `gatehouse serve` lets requests in flight finish after SIGTERM or SIGINT before it
   * closes their connections, in milliseconds; default 10 000.
   */
  shutdownGraceMs?: number;
  /**
   * A bearer token that lets a caller read `GET /metrics` from any address
   * (`Authorization: Bearer {token}`, at least 16 characters); default none: only loopback
   * callers may read the metrics.
   */
  metricsToken?: string | null;
  /** How the server resolves the hosts of URLs it fetches for a caller (SAML metadata); tests. */
  resolveHost?: (hostname: string) => Promise<string[]>;
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
  logger: boolean | LogDestination;
  /** False, a hop count (≥ 1), or a list of proxy addresses and CIDR ranges. */
  trustProxy: false | number | string[];
  rateLimits: RateLimitConfig;
  passwordBreachRangeUrl: string | null;
  captchaVerifyUrl: string | null;
  captchaTimeoutMs: number;
  passwordThrottle: PasswordThrottleConfig;
  sessionMaxLifetimeMinutes: number;
  eventRetentionDays: number;
  bodyLimitBytes: number;
  /** 0: no limit. */
  requestTimeoutMs: number;
  shutdownGraceMs: number;
  metricsToken: string | null;
  resolveHost: ((hostname: string) => Promise<string[]>) | undefined;
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
  mfaFailuresBeforeLock: 20,
  eventBatchesPerIpPerMinute: 120,
};
/** How long telemetry events are kept before the scheduled purge deletes them. */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;
export const DEFAULT_PASSWORD_THROTTLE: PasswordThrottleConfig = {
  freeAttempts: 5,
  initialDelaySeconds: 1,
  maxDelaySeconds: 900,
  attemptsPerEmail: 100,
  windowMinutes: 60,
};
/** Thirty days: how long a session may live from its start, however often it is refreshed. */
export const DEFAULT_SESSION_MAX_LIFETIME_MINUTES = 43_200;
/** The body limit of every route that sets none of its own: JSON bodies here are small. */
export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;
/** How long a captcha provider may take to verify a token before the call fails with 503. */
export const DEFAULT_CAPTCHA_TIMEOUT_MS = 5000;
/** Time to receive a whole request; generous for real clients, short for trickling ones. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Below the 30 s an orchestrator usually waits after SIGTERM before it kills the process. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** The smallest body limit accepted: below it, ordinary sign-in bodies would be refused. */
const MIN_BODY_LIMIT_BYTES = 1024;
/** Shorter metrics tokens are refused: the token is the only guard of /metrics off loopback. */
const MIN_METRICS_TOKEN_LENGTH = 16;

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
    devInbox: config.devInbox ?? false,
    logger: config.logger ?? false,
    trustProxy: resolveTrustProxy(config.trustProxy),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...config.rateLimits },
    passwordBreachRangeUrl: config.passwordBreachRangeUrl ?? null,
    captchaVerifyUrl: config.captchaVerifyUrl ?? null,
    captchaTimeoutMs: wholeNumber(
      'captchaTimeoutMs (CAPTCHA_TIMEOUT_MS)',
      config.captchaTimeoutMs,
      DEFAULT_CAPTCHA_TIMEOUT_MS,
      1,
      'milliseconds',
    ),
    passwordThrottle: passwordThrottle(config),
    sessionMaxLifetimeMinutes: sessionMaxLifetime(config.sessionMaxLifetimeMinutes),
    eventRetentionDays: eventRetentionDays(config.eventRetentionDays),
    bodyLimitBytes: wholeNumber(
      'bodyLimitBytes (BODY_LIMIT_BYTES)',
      config.bodyLimitBytes,
      DEFAULT_BODY_LIMIT_BYTES,
      MIN_BODY_LIMIT_BYTES,
      'bytes',
    ),
    requestTimeoutMs: requestTimeout(config.requestTimeoutMs),
    shutdownGraceMs: wholeNumber(
      'shutdownGraceMs (SHUTDOWN_GRACE_MS)',
      config.shutdownGraceMs,
      DEFAULT_SHUTDOWN_GRACE_MS,
      0,
      'milliseconds',
    ),
    metricsToken: metricsToken(config.metricsToken),
    resolveHost: config.resolveHost,
    now: config.now ?? Date.now,
  };
}

/**
 * The password throttle: the defaults, overridden by `passwordThrottle`.
 * Anything but whole numbers ≥ 1 is a usage error.
 */
function passwordThrottle(config: ServerConfig): PasswordThrottleConfig {
  const resolved: PasswordThrottleConfig = {
    ...DEFAULT_PASSWORD_THROTTLE,
    ...config.passwordThrottle,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new TypeError(`passwordThrottle.${name} must be a whole number, at least 1: ${value}`);
    }
  }
  return resolved;
}

/** The absolute session lifetime; a value that is not a whole number of minutes ≥ 5 is a usage error. */
function sessionMaxLifetime(minutes: number | undefined): number {
  if (minutes === undefined) return DEFAULT_SESSION_MAX_LIFETIME_MINUTES;
  if (!Number.isInteger(minutes) || minutes < 5) {
    throw new TypeError(
      `sessionMaxLifetimeMinutes (SESSION_MAX_LIFETIME_MINUTES) must be a whole number of minutes, at least 5: ${minutes}`,
    );
  }
  return minutes;
}

/** The telemetry retention; a value that is not a whole number of days ≥ 1 is a usage error. */
function eventRetentionDays(days: number | undefined): number {
  if (days === undefined) return DEFAULT_EVENT_RETENTION_DAYS;
  if (!Number.isInteger(days) || days < 1) {
    throw new TypeError(
      `eventRetentionDays (EVENT_RETENTION_DAYS) must be a whole number of days, at least 1: ${days}`,
    );
  }
  return days;
}

/** A whole number of `unit`, at least `min`; anything else (NaN from a bad variable) is a usage error. */
function wholeNumber(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  unit: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`${name} must be a whole number of ${unit}, at least ${min}: ${value}`);
  }
  return value;
}

/** The request timeout: 0 (off), or at least a second, so that no real client is cut off. */
function requestTimeout(ms: number | undefined): number {
  if (ms === 0) return 0;
  return wholeNumber(
    'requestTimeoutMs (REQUEST_TIMEOUT_MS)',
    ms,
    DEFAULT_REQUEST_TIMEOUT_MS,
    1000,
    'milliseconds (or 0 for no limit)',
  );
}

/** The metrics token; one too short to resist guessing is a usage error. */
function metricsToken(token: string | null | undefined): string | null {
  if (token === undefined || token === null) return null;
  if (token.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(token)) {
    throw new TypeError(
      `metricsToken (METRICS_TOKEN) must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces (e.g. \`openssl rand -hex 32\`)`,
    );
  }
  return token;
}

/** Which proxies may name the client: a hop count, or addresses and CIDR ranges. */
export type TrustProxy = false | number | string | readonly string[];

/**
 * Validates `trustProxy`. Fastify would also take `true` (trust every hop), but then the client
 * writes the leftmost `X-Forwarded-For` value itself and so chooses the IP every per-IP limit
 * counts: refused as a usage error, like anything that is not a hop count or an address list.
 */
function resolveTrustProxy(value: TrustProxy | undefined): false | number | string[] {
  if (value === undefined || value === false) return false;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) {
      throw new TypeError(`trustProxy (TRUST_PROXY) must be a whole number of hops: ${value}`);
    }
    return value === 0 ? false : value;
  }
  if ((value as unknown) === true || value === 'true') {
    throw new TypeError(
      'trustProxy (TRUST_PROXY) cannot be true: that lets any client choose its own IP through ' +
        'X-Forwarded-For. Give the number of proxies in front of the server (TRUST_PROXY=1) or ' +
        'their addresses (TRUST_PROXY=10.0.0.0/8,127.0.0.1).',
    );
  }
  const entries = (typeof value === 'string' ? value.split(',') : [...value])
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) {
      throw new TypeError(
        `trustProxy (TRUST_PROXY) must be a hop count or IP addresses and CIDR ranges: "${entry}" is neither`,
      );
    }
  }
  return entries.length === 0 ? false : entries;
}

/** `10.0.0.1`, `::1`, `10.0.0.0/8` or `fd00::/8`. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix <= (family === 4 ? 32 : 128);
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
 * `TRUST_PROXY`, `GATEHOUSE_DEV_INBOX`, `PASSWORD_BREACH_RANGE_URL`, `SMS_PROVIDER_URL`, `SMS_PROVIDER_TOKEN`,
 * `SMS_FROM`, `SESSION_MAX_LIFETIME_MINUTES`, `EVENT_RETENTION_DAYS`, `BODY_LIMIT_BYTES`,
 * `REQUEST_TIMEOUT_MS`, `SHUTDOWN_GRACE_MS`, `METRICS_TOKEN`.
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
  if (env.TRUST_PROXY) {
    // A bare number is a hop count; anything else an address list ("true" is refused on resolve).
    config.trustProxy = /^\d+$/.test(env.TRUST_PROXY.trim())
      ? Number(env.TRUST_PROXY)
      : env.TRUST_PROXY === 'false'
        ? false
        : env.TRUST_PROXY;
  }
  if (env.GATEHOUSE_DEV_INBOX === 'true' || env.GATEHOUSE_DEV_INBOX === '1') config.devInbox = true;
  if (env.PASSWORD_BREACH_RANGE_URL) config.passwordBreachRangeUrl = env.PASSWORD_BREACH_RANGE_URL;
  if (env.CAPTCHA_VERIFY_URL) config.captchaVerifyUrl = env.CAPTCHA_VERIFY_URL;
  if (env.SESSION_MAX_LIFETIME_MINUTES) {
    config.sessionMaxLifetimeMinutes = Number(env.SESSION_MAX_LIFETIME_MINUTES);
  }
  if (env.EVENT_RETENTION_DAYS) config.eventRetentionDays = Number(env.EVENT_RETENTION_DAYS);
  // Number('') is 0 and Number(' 5 ') is 5: only plain digits count, anything else becomes NaN
  // and is refused by resolveConfig with the variable's name.
  const digits = (raw: string) => (/^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN);
  if (env.BODY_LIMIT_BYTES) config.bodyLimitBytes = digits(env.BODY_LIMIT_BYTES);
  if (env.REQUEST_TIMEOUT_MS) config.requestTimeoutMs = digits(env.REQUEST_TIMEOUT_MS);
  if (env.SHUTDOWN_GRACE_MS) config.shutdownGraceMs = digits(env.SHUTDOWN_GRACE_MS);
  if (env.CAPTCHA_TIMEOUT_MS) config.captchaTimeoutMs = digits(env.CAPTCHA_TIMEOUT_MS);
  if (env.METRICS_TOKEN) config.metricsToken = env.METRICS_TOKEN;
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
