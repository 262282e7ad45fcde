/** The types of the server's configuration: `ServerConfig` as given, `ResolvedConfig` with every default applied. */
import type { LogDestination } from '../http/logging.js';

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
   * Logs: false (default) for none, true for JSON lines on stdout, or a destination to write them
   * to. Sign-in decisions, calls answered with an error, warnings, start and stop; lines for every
   * request too with `logRequests`. Secrets are redacted either way (docs/security.md).
   */
  logger?: boolean | LogDestination;
  /**
   * With a logger, two lines per request (received, answered: method, path, status, time,
   * request id). Default false: a proxy in front usually keeps access logs, and the lines cost
   * more than a session check itself (bench/RESULTS.md).
   */
  logRequests?: boolean;
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
   * The DNS servers that domain verification asks for TXT records (`1.1.1.1`, `127.0.0.1:5353`,
   * `[::1]:53`); default null: the system's resolvers.
   */
  dnsServers?: string[] | null;
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
  logRequests: boolean;
  /** False, a hop count (≥ 1), or a list of proxy addresses and CIDR ranges. */
  trustProxy: false | number | string[];
  rateLimits: RateLimitConfig;
  passwordBreachRangeUrl: string | null;
  captchaVerifyUrl: string | null;
  captchaTimeoutMs: number;
  dnsServers: string[] | null;
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

/** Which proxies may name the client: a hop count, or addresses and CIDR ranges. */
export type TrustProxy = false | number | string | readonly string[];
