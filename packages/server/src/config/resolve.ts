/** Applying the defaults to a `ServerConfig`, and refusing values the server cannot use. */
import { isIP } from 'node:net';
import { DEFAULT_DATABASE_URL } from '../store/db.js';
import {
  BODY_LIMIT_BYTES,
  CAPTCHA_TIMEOUT_MS,
  DEFAULT_EMAIL_FROM,
  DNS_SERVERS,
  DEFAULT_PUBLIC_URL,
  EVENT_RETENTION_DAYS,
  METRICS_TOKEN,
  MIN_METRICS_TOKEN_LENGTH,
  REQUEST_TIMEOUT_MS,
  SESSION_MAX_LIFETIME_MINUTES,
  SHUTDOWN_GRACE_MS,
  TRUST_PROXY,
  type ConfigSetting,
} from './settings.js';
import type {
  PasswordThrottleConfig,
  RateLimitConfig,
  ResolvedConfig,
  ServerConfig,
  TrustProxy,
} from './types.js';

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
export const DEFAULT_PASSWORD_THROTTLE: PasswordThrottleConfig = {
  freeAttempts: 5,
  initialDelaySeconds: 1,
  maxDelaySeconds: 900,
  attemptsPerEmail: 100,
  windowMinutes: 60,
};

/**
 * Applies the defaults, and throws a `TypeError` naming the key and its variable for a value the
 * server cannot use.
 *
 * @example
 * resolveConfig(configFromEnv()).bodyLimitBytes; // 262144 unless BODY_LIMIT_BYTES says otherwise
 */
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
    logRequests: config.logRequests ?? false,
    trustProxy: resolveTrustProxy(config.trustProxy),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...config.rateLimits },
    passwordBreachRangeUrl: config.passwordBreachRangeUrl ?? null,
    captchaVerifyUrl: config.captchaVerifyUrl ?? null,
    captchaTimeoutMs: wholeNumber(CAPTCHA_TIMEOUT_MS, config.captchaTimeoutMs),
    dnsServers: resolveDnsServers(config.dnsServers),
    passwordThrottle: passwordThrottle(config),
    sessionMaxLifetimeMinutes: wholeNumber(
      SESSION_MAX_LIFETIME_MINUTES,
      config.sessionMaxLifetimeMinutes,
    ),
    eventRetentionDays: wholeNumber(EVENT_RETENTION_DAYS, config.eventRetentionDays),
    bodyLimitBytes: wholeNumber(BODY_LIMIT_BYTES, config.bodyLimitBytes),
    requestTimeoutMs: wholeNumber(REQUEST_TIMEOUT_MS, config.requestTimeoutMs),
    shutdownGraceMs: wholeNumber(SHUTDOWN_GRACE_MS, config.shutdownGraceMs),
    metricsToken: metricsToken(config.metricsToken),
    resolveHost: config.resolveHost,
    now: config.now ?? Date.now,
  };
}

/** `bodyLimitBytes (BODY_LIMIT_BYTES)`: how errors name a setting, for code and env alike. */
function label(setting: ConfigSetting): string {
  return `${setting.path} (${setting.env})`;
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

/**
 * A whole number within the setting's bounds, or its default when unset; anything else (NaN from
 * a bad variable) is a usage error.
 */
function wholeNumber(setting: ConfigSetting, value: number | undefined): number {
  const bounds = setting.bounds;
  if (!bounds) throw new Error(`${setting.env} has no bounds`);
  if (value === undefined) return bounds.fallback;
  if (bounds.zeroMeansOff && value === 0) return 0;
  if (!Number.isSafeInteger(value) || value < bounds.min) {
    const unit = bounds.zeroMeansOff ? `${bounds.unit} (or 0 for no limit)` : bounds.unit;
    throw new TypeError(
      `${label(setting)} must be a whole number of ${unit}, at least ${bounds.min}: ${value}`,
    );
  }
  return value;
}

/** The metrics token; one too short to resist guessing is a usage error. */
function metricsToken(token: string | null | undefined): string | null {
  if (token === undefined || token === null) return null;
  if (token.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(token)) {
    throw new TypeError(
      `${label(METRICS_TOKEN)} must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces (e.g. \`openssl rand -hex 32\`)`,
    );
  }
  return token;
}

/**
 * Validates `dnsServers`: IP addresses, each with an optional port (`1.1.1.1:53`, `[::1]:53`), as
 * node:dns `setServers` takes them; a host name is refused, as resolving it would need DNS.
 */
function resolveDnsServers(value: string[] | null | undefined): string[] | null {
  if (!value || value.length === 0) return null;
  for (const entry of value) {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
    const plain = /^([^:]+)(?::(\d{1,5}))?$/.exec(entry);
    const [, address, port] = bracketed ?? plain ?? (isIP(entry) === 6 ? [entry, entry] : []);
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
    if (address === undefined || isIP(address) === 0 || !portOk) {
      throw new TypeError(
        `${label(DNS_SERVERS)} must be IP addresses with an optional port: "${entry}" is not one`,
      );
    }
  }
  return value;
}

/**
 * Validates `trustProxy`. Fastify would also take `true` (trust every hop), but then the client
 * writes the leftmost `X-Forwarded-For` value itself and so chooses the IP every per-IP limit
 * counts: refused as a usage error, like anything that is not a hop count or an address list.
 */
function resolveTrustProxy(value: TrustProxy | undefined): false | number | string[] {
  if (value === undefined || value === false) return false;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) {
      throw new TypeError(`${label(TRUST_PROXY)} must be a whole number of hops: ${value}`);
    }
    return value === 0 ? false : value;
  }
  if ((value as unknown) === true || value === 'true') {
    throw new TypeError(
      `${label(TRUST_PROXY)} cannot be true: that lets any client choose its own IP through ` +
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
        `${label(TRUST_PROXY)} must be a hop count or IP addresses and CIDR ranges: "${entry}" is neither`,
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
