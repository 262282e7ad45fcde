/**
 * Every environment variable the server reads, declared once. `configFromEnv` parses them from
 * this table, `resolveConfig` takes their bounds from it, `gatehouse serve --help` lists it, and
 * `scripts/settings-table.mjs` writes it into README.md and docs/deploy.md (docs/contributing.md,
 * "Adding a setting").
 */
import { DEFAULT_DATABASE_URL } from '../store/db.js';
import type { ServerConfig, SmsConfig, SmtpConfig } from './types.js';

export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
export const DEFAULT_EMAIL_FROM = 'Gatehouse <no-reply@gatehouse.local>';
/** How long telemetry events are kept before the scheduled purge deletes them. */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;
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
/** Shorter metrics tokens are refused: the token is the only guard of /metrics off loopback. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

/** Where `configFromEnv` puts a variable: a key of `ServerConfig`, or of its `smtp` or `sms`. */
export type ConfigPath =
  | Exclude<keyof ServerConfig, 'smtp' | 'sms'>
  | `smtp.${keyof SmtpConfig}`
  | `sms.${keyof SmsConfig}`;

/** The type of the value at a {@link ConfigPath}: what that variable's parser must return. */
export type ValueAt<P extends ConfigPath> = P extends `smtp.${infer K extends keyof SmtpConfig}`
  ? SmtpConfig[K]
  : P extends `sms.${infer K extends keyof SmsConfig}`
    ? SmsConfig[K]
    : P extends keyof ServerConfig
      ? ServerConfig[P]
      : never;

/** A whole-number setting's bounds, checked by `resolveConfig` with the variable's name. */
export interface WholeNumberBounds {
  readonly min: number;
  /** `milliseconds`, `bytes`…: the unit the error message and the docs name. */
  readonly unit: string;
  /** What applies when it is unset. */
  readonly fallback: number;
  /** 0 is allowed too, below `min`, and turns the limit off. */
  readonly zeroMeansOff?: boolean;
}

/** What every row of the table says, for the help and the docs. */
interface SettingInfo {
  /** The environment variable. */
  readonly env: string;
  /** What its value is, as the docs' type column says it. */
  readonly type: 'string' | 'URL' | 'boolean' | 'whole number' | 'port' | 'proxy list or hops';
  /** One line, in Markdown (the help prints it without the backticks). */
  readonly description: string;
  /** What applies when it is unset, in Markdown. */
  readonly fallback: string;
  /** A valid value other than the default, as the docs show it. */
  readonly example: string;
  /** Production needs it set (README.md, "Production checklist"). */
  readonly requiredInProduction?: boolean;
  /** A credential: never printed, logged or shown with its value. */
  readonly secret?: boolean;
}

/** A variable `configFromEnv` reads into the config at `path`. */
export interface ConfigSetting<P extends ConfigPath = ConfigPath> extends SettingInfo {
  readonly path: P;
  /**
   * The value at `path`, or undefined to leave it unset. Values out of bounds are still returned
   * (a bad number as NaN), so that `resolveConfig` refuses them and a `ServerConfig` given in
   * code alike, naming both the key and the variable.
   */
  readonly parse: (raw: string) => ValueAt<P> | undefined;
  readonly bounds?: WholeNumberBounds;
}

/** A variable read outside the config: by a CLI command or the launcher. */
export interface ProcessSetting extends SettingInfo {
  readonly path: null;
  /** What reads it. */
  readonly readBy: string;
}

/** One row of the table. */
export type Setting = ConfigSetting | ProcessSetting;

/**
 * Declares a variable of the config; the compiler checks its parser against the type of the
 * `ServerConfig` key it fills.
 *
 * @example
 * const EMAIL_FROM = setting({ env: 'EMAIL_FROM', path: 'emailFrom', parse: text, … });
 */
function setting<P extends ConfigPath>(spec: ConfigSetting<P>): ConfigSetting<P> {
  return spec;
}

/** Text as it is. */
const text = (raw: string): string => raw;
/** `true` or `1`; anything else leaves the setting off. */
const flag = (raw: string): true | undefined => (raw === 'true' || raw === '1' ? true : undefined);
/** `Number(raw)`, as these variables have always been read (so `1e3` is 1000). */
const number = (raw: string): number => Number(raw);
/** Plain digits only: `Number('')` is 0 and `Number(' 5 ')` is 5, so anything else is NaN. */
const digits = (raw: string): number => (/^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN);
/** A bare number is a hop count, `false` none, anything else an address list (`true` is refused on resolve). */
const proxies = (raw: string): ServerConfig['trustProxy'] =>
  /^\d+$/.test(raw.trim()) ? Number(raw) : raw === 'false' ? false : raw;

const PORT: ProcessSetting = {
  env: 'PORT',
  path: null,
  readBy: 'gatehouse serve',
  type: 'port',
  description:
    'the port `gatehouse serve` (and `npm start`) listens on when `--port` is not given, on ' +
    '`0.0.0.0` unless `--host` says otherwise',
  fallback: '`3000`',
  example: '8080',
};

export const DATABASE_URL = setting({
  env: 'DATABASE_URL',
  path: 'databaseUrl',
  parse: text,
  type: 'URL',
  description:
    'the database: `sqlite:PATH` or `sqlite::memory:` for a single instance, or ' +
    '`postgres://user:pass@host:5432/db` (also `postgresql://…`)',
  fallback: `\`${DEFAULT_DATABASE_URL}\``,
  example: 'postgres://gatehouse:secret@db:5432/gatehouse',
  // A PostgreSQL URL carries the database password.
  secret: true,
});

export const PUBLIC_URL = setting({
  env: 'PUBLIC_URL',
  path: 'publicUrl',
  parse: text,
  type: 'URL',
  description:
    'the public origin: e-mail links, the JWT issuer, `error_url`, OAuth and SSO callback URLs; ' +
    'an `https://` origin turns on HSTS',
  fallback: `\`${DEFAULT_PUBLIC_URL}\``,
  example: 'https://auth.example.com',
  requiredInProduction: true,
});

const SMTP_HOST = setting({
  env: 'SMTP_HOST',
  path: 'smtp.host',
  parse: text,
  type: 'string',
  description:
    'the SMTP server that delivers e-mail; without it `gatehouse serve` refuses to start unless ' +
    '`GATEHOUSE_DEV_INBOX=true` asks for the dev inbox. The other `SMTP_*` settings apply only with it',
  fallback: 'none',
  example: 'smtp.example.com',
  requiredInProduction: true,
});

const SMTP_PORT = setting({
  env: 'SMTP_PORT',
  path: 'smtp.port',
  parse: number,
  type: 'port',
  description: 'the SMTP server’s port',
  fallback: '`587`, or `465` with `SMTP_SECURE=true`',
  example: '2525',
});

const SMTP_SECURE = setting({
  env: 'SMTP_SECURE',
  path: 'smtp.secure',
  parse: flag,
  type: 'boolean',
  description:
    '`true` or `1` for TLS from the start of the connection (usually port 465); otherwise ' +
    'STARTTLS when the server offers it',
  fallback: 'off',
  example: 'true',
});

const SMTP_USER = setting({
  env: 'SMTP_USER',
  path: 'smtp.user',
  parse: text,
  type: 'string',
  description: 'the SMTP login’s user name',
  fallback: 'none: no authentication',
  example: 'gatehouse',
});

const SMTP_PASS = setting({
  env: 'SMTP_PASS',
  path: 'smtp.pass',
  parse: text,
  type: 'string',
  description: 'the SMTP login’s password',
  fallback: 'none',
  example: 'from your secret store',
  secret: true,
});

const GATEHOUSE_DEV_INBOX = setting({
  env: 'GATEHOUSE_DEV_INBOX',
  path: 'devInbox',
  parse: flag,
  type: 'boolean',
  description:
    '`true` or `1` turns on the dev inbox at `/_dev/inbox`, which shows every e-mail and text ' +
    'message (sign-in links and codes included) instead of sending them. Development only: ' +
    'refused at start with a live project or an https `PUBLIC_URL`, closed while any project is ' +
    'live, and answering only requests from this machine to `localhost`. `npm start` turns it on',
  fallback: 'off',
  example: 'true',
});

const EMAIL_FROM = setting({
  env: 'EMAIL_FROM',
  path: 'emailFrom',
  parse: text,
  type: 'string',
  description: 'the sender of e-mails; its domain is bootstrap’s `email_domains`',
  fallback: `\`${DEFAULT_EMAIL_FROM}\``,
  example: 'Acme Sign-in <login@mail.acme.example>',
});

export const GATEHOUSE_SERVER_KEY = setting({
  env: 'GATEHOUSE_SERVER_KEY',
  path: 'serverKey',
  parse: text,
  type: 'string',
  description:
    '32 bytes as 64 hex digits or base64: the key that encrypts secrets at rest. In production ' +
    'set it from a secret store, so that the key never sits in the data folder',
  fallback:
    'with SQLite, generated once into `{database file}.key` beside the database (mode 0600); ' +
    '**required** with PostgreSQL',
  example: '$(openssl rand -hex 32)',
  requiredInProduction: true,
  secret: true,
});

const SMS_PROVIDER_URL = setting({
  env: 'SMS_PROVIDER_URL',
  path: 'sms.url',
  parse: text,
  type: 'URL',
  description:
    'an HTTP SMS provider for MFA codes: each text is `POST {url}` with JSON `{to, from, body}`. ' +
    'The other `SMS_*` settings apply only with it',
  fallback:
    'none: texts go to the dev inbox when it is on, and otherwise sending one answers 503 ' +
    '`sms_delivery_failed`',
  example: 'https://sms.example.com/send',
});

const SMS_PROVIDER_TOKEN = setting({
  env: 'SMS_PROVIDER_TOKEN',
  path: 'sms.authToken',
  parse: text,
  type: 'string',
  description: 'sent to the SMS provider as `Authorization: Bearer {token}`',
  fallback: 'empty',
  example: 'from your secret store',
  secret: true,
});

const SMS_FROM = setting({
  env: 'SMS_FROM',
  path: 'sms.from',
  parse: text,
  type: 'string',
  description: 'the sender number or id of text messages',
  fallback: 'empty',
  example: '+15550100',
});

const PASSWORD_BREACH_RANGE_URL = setting({
  env: 'PASSWORD_BREACH_RANGE_URL',
  path: 'passwordBreachRangeUrl',
  parse: text,
  type: 'URL',
  description:
    'the base URL of a k-anonymity range API for breached passwords (`GET {url}/range/{sha1 ' +
    'prefix}`); an offline list of common passwords is always checked',
  fallback: 'none: only the offline list is checked',
  example: 'https://api.pwnedpasswords.com',
});

const CAPTCHA_VERIFY_URL = setting({
  env: 'CAPTCHA_VERIFY_URL',
  path: 'captchaVerifyUrl',
  parse: text,
  type: 'URL',
  description:
    'a `siteverify`-compatible endpoint that checks every captcha token instead of the ' +
    'project’s provider’s own (a proxy, or a stand-in in tests). Captcha itself is set per ' +
    'project (`gatehouse captcha set`)',
  fallback: 'the provider’s: Turnstile, reCAPTCHA or hCaptcha `siteverify`',
  example: 'https://captcha-proxy.internal/siteverify',
});

export const CAPTCHA_TIMEOUT_MS = setting({
  env: 'CAPTCHA_TIMEOUT_MS',
  path: 'captchaTimeoutMs',
  parse: digits,
  bounds: { min: 1, unit: 'milliseconds', fallback: DEFAULT_CAPTCHA_TIMEOUT_MS },
  type: 'whole number',
  description:
    'how long the captcha provider may take to check a token before the call fails with 503 ' +
    '`captcha_unavailable`',
  fallback: `\`${DEFAULT_CAPTCHA_TIMEOUT_MS}\``,
  example: '2000',
});

export const DNS_SERVERS = setting({
  env: 'DNS_SERVERS',
  path: 'dnsServers',
  parse: (raw) =>
    raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  type: 'string',
  description:
    'the DNS servers that verify organizations’ e-mail domains (their TXT records), ' +
    'comma-separated IP addresses with an optional port (`1.1.1.1,[2606:4700::1111]:53`)',
  fallback: 'the system’s resolvers',
  example: '1.1.1.1,8.8.8.8',
});

export const TRUST_PROXY = setting({
  env: 'TRUST_PROXY',
  path: 'trustProxy',
  parse: proxies,
  type: 'proxy list or hops',
  description:
    'the reverse proxies in front of the server, so that per-IP rate limits see client ' +
    'addresses: their addresses or CIDR ranges, comma-separated (`10.0.0.0/8,127.0.0.1`, ' +
    'preferred), or their number (`1`, only when the server cannot be reached except through ' +
    'them); `false` or `0` for none. `true` is refused: it would let every client pick its own address',
  fallback: 'the socket’s address is the client’s',
  example: '10.0.0.0/8,127.0.0.1',
});

export const SESSION_MAX_LIFETIME_MINUTES = setting({
  env: 'SESSION_MAX_LIFETIME_MINUTES',
  path: 'sessionMaxLifetimeMinutes',
  parse: number,
  bounds: { min: 5, unit: 'minutes', fallback: DEFAULT_SESSION_MAX_LIFETIME_MINUTES },
  type: 'whole number',
  description:
    'a session’s absolute lifetime from its start; refreshes never extend it. It applies to ' +
    'every project without its own (`gatehouse project update --session-max-lifetime-minutes`)',
  fallback: `\`${DEFAULT_SESSION_MAX_LIFETIME_MINUTES}\` (30 days)`,
  example: '1440',
});

export const EVENT_RETENTION_DAYS = setting({
  env: 'EVENT_RETENTION_DAYS',
  path: 'eventRetentionDays',
  parse: number,
  bounds: { min: 1, unit: 'days', fallback: DEFAULT_EVENT_RETENTION_DAYS },
  type: 'whole number',
  description:
    'how long telemetry events (`/sdk/v1/events`) are kept before housekeeping deletes them',
  fallback: `\`${DEFAULT_EVENT_RETENTION_DAYS}\``,
  example: '7',
});

export const BODY_LIMIT_BYTES = setting({
  env: 'BODY_LIMIT_BYTES',
  path: 'bodyLimitBytes',
  parse: digits,
  // Below 1 KiB, ordinary sign-in bodies would be refused.
  bounds: { min: 1024, unit: 'bytes', fallback: DEFAULT_BODY_LIMIT_BYTES },
  type: 'whole number',
  description:
    'the largest request body accepted; larger ones are answered 400. The SAML ACS keeps its ' +
    'own 1 MiB, the SSO metadata routes 2 MiB',
  fallback: `\`${DEFAULT_BODY_LIMIT_BYTES}\` (256 KiB)`,
  example: '1048576',
});

export const REQUEST_TIMEOUT_MS = setting({
  env: 'REQUEST_TIMEOUT_MS',
  path: 'requestTimeoutMs',
  parse: digits,
  // At least a second, so that no real client is cut off.
  bounds: {
    min: 1000,
    unit: 'milliseconds',
    fallback: DEFAULT_REQUEST_TIMEOUT_MS,
    zeroMeansOff: true,
  },
  type: 'whole number',
  description:
    'how long a client may take to send its whole request; slower clients are answered 408 and ' +
    'disconnected',
  fallback: `\`${DEFAULT_REQUEST_TIMEOUT_MS}\``,
  example: '5000',
});

export const SHUTDOWN_GRACE_MS = setting({
  env: 'SHUTDOWN_GRACE_MS',
  path: 'shutdownGraceMs',
  parse: digits,
  bounds: { min: 0, unit: 'milliseconds', fallback: DEFAULT_SHUTDOWN_GRACE_MS },
  type: 'whole number',
  description:
    'after SIGTERM or SIGINT the server stops accepting connections and lets requests in flight ' +
    'finish for this long before it closes them and the database',
  fallback: `\`${DEFAULT_SHUTDOWN_GRACE_MS}\``,
  example: '2500',
});

export const LOG_REQUESTS = setting({
  env: 'LOG_REQUESTS',
  path: 'logRequests',
  parse: flag,
  type: 'boolean',
  description:
    '`true` or `1` logs two JSON lines per request on stdout (received; answered with its ' +
    'status and time), query values and secrets redacted. Sign-in decisions, calls answered ' +
    'with an error, warnings, start and stop are logged either way',
  fallback: 'off',
  example: 'true',
});

export const METRICS_TOKEN = setting({
  env: 'METRICS_TOKEN',
  path: 'metricsToken',
  parse: text,
  type: 'string',
  description:
    `a token (at least ${MIN_METRICS_TOKEN_LENGTH} characters, no spaces) that lets a scraper ` +
    'read `GET /metrics` from any address with `Authorization: Bearer {token}`',
  fallback: 'none: only callers on this machine (loopback) may read `/metrics`',
  example: '$(openssl rand -hex 32)',
  secret: true,
});

const UV_THREADPOOL_SIZE: ProcessSetting = {
  env: 'UV_THREADPOOL_SIZE',
  path: null,
  readBy: 'bin/gatehouse.cjs',
  type: 'whole number',
  description:
    'libuv’s thread pool, which reads files and checks imported scrypt, PBKDF2 and bcrypt ' +
    'hashes; the `gatehouse` command (and `npm start`) sets it to the core count before ' +
    'anything starts the pool',
  fallback: 'one per core, at least 2',
  example: '4',
};

const HASH_THREADS: ProcessSetting = {
  env: 'HASH_THREADS',
  path: null,
  readBy: 'the password hashing threads',
  type: 'whole number',
  description:
    'threads that hash passwords with argon2id, at a lower scheduling priority than requests; ' +
    'in a container with a CPU quota, set it to the quota’s cores',
  fallback: 'one per core the process may run on',
  example: '2',
};

/**
 * Every variable the server reads, in the order the help and the docs list them. A new one is a
 * new entry here (with `setting()` when it fills the config); its key in `ServerConfig` comes
 * first.
 */
export const SETTINGS = [
  PORT,
  DATABASE_URL,
  PUBLIC_URL,
  SMTP_HOST,
  SMTP_PORT,
  SMTP_SECURE,
  SMTP_USER,
  SMTP_PASS,
  GATEHOUSE_DEV_INBOX,
  EMAIL_FROM,
  GATEHOUSE_SERVER_KEY,
  SMS_PROVIDER_URL,
  SMS_PROVIDER_TOKEN,
  SMS_FROM,
  PASSWORD_BREACH_RANGE_URL,
  CAPTCHA_VERIFY_URL,
  CAPTCHA_TIMEOUT_MS,
  DNS_SERVERS,
  TRUST_PROXY,
  SESSION_MAX_LIFETIME_MINUTES,
  EVENT_RETENTION_DAYS,
  BODY_LIMIT_BYTES,
  REQUEST_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
  LOG_REQUESTS,
  METRICS_TOKEN,
  HASH_THREADS,
  UV_THREADPOOL_SIZE,
] as const satisfies readonly Setting[];

/** The `ServerConfig` keys that only code sets: objects, functions and test overrides. */
type CodeOnlyKey = 'logger' | 'rateLimits' | 'passwordThrottle' | 'resolveHost' | 'now';

/** `smtp` of `smtp.host`; a top-level key as it is. */
type TopKey<P> = P extends `${infer Head}.${string}` ? Head : P;

/** The `ServerConfig` keys the table fills (`smtp` and `sms` through their fields). */
type FilledKey = TopKey<Extract<(typeof SETTINGS)[number], { path: string }>['path']>;

/**
 * A `ServerConfig` key with no variable and not code-only fails to compile here, naming the key:
 * a new option gets a row in the table, or a place in `CodeOnlyKey`.
 */
const everyKeyHasASetting: Exclude<keyof ServerConfig, FilledKey | CodeOnlyKey> extends never
  ? true
  : Exclude<keyof ServerConfig, FilledKey | CodeOnlyKey> = true;
void everyKeyHasASetting;
