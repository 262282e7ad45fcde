/** The environment variables the server reads, as `gatehouse serve --help` lists them. */
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_EMAIL_FROM,
  DEFAULT_EVENT_RETENTION_DAYS,
  DEFAULT_PUBLIC_URL,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SESSION_MAX_LIFETIME_MINUTES,
  DEFAULT_SHUTDOWN_GRACE_MS,
} from '../config.js';
import { DEFAULT_DATABASE_URL } from '../store/db.js';
import type { Setting } from './command.js';

const DATABASE_URL: Setting = {
  name: 'DATABASE_URL',
  description: 'The database: sqlite:PATH, sqlite::memory: or a postgres:// URL',
  fallback: DEFAULT_DATABASE_URL,
};

const SERVER_KEY: Setting = {
  name: 'GATEHOUSE_SERVER_KEY',
  description:
    'A 32-byte key (hex or base64) that encrypts secrets at rest. In production set it from a ' +
    'secret store, so that the key never sits in the data folder',
  fallback:
    'with SQLite, generated once into {database file}.key beside the database (mode 0600); ' +
    'required with PostgreSQL',
};

/** Where the data is, and the key that encrypts secrets in it: what every command opens. */
export const DATABASE_SETTINGS: readonly Setting[] = [DATABASE_URL, SERVER_KEY];

const PUBLIC_URL: Setting = {
  name: 'PUBLIC_URL',
  description:
    'The public origin, used in e-mail links and as the JWT issuer; an https origin turns on HSTS',
  fallback: DEFAULT_PUBLIC_URL,
};

/** What the commands that print URLs to register at a provider read. */
export const DATABASE_AND_URL_SETTINGS: readonly Setting[] = [...DATABASE_SETTINGS, PUBLIC_URL];

/**
 * The warning of a command that prints URLs under the public origin when `PUBLIC_URL` is unset,
 * or an empty string.
 *
 * @example
 * io.stderr(publicUrlWarning(io.env));
 */
export function publicUrlWarning(env: Readonly<Record<string, string | undefined>>): string {
  if (env.PUBLIC_URL) return '';
  return (
    `warning: PUBLIC_URL is not set, so these URLs start with ${DEFAULT_PUBLIC_URL}. ` +
    'Set PUBLIC_URL to the origin the server is reached at (as for `gatehouse serve`) and run ' +
    'the command again before registering them.\n'
  );
}

/**
 * Every variable the server reads: those of `configFromEnv`, `PORT` (read by `serve`) and
 * `UV_THREADPOOL_SIZE` (set by bin/gatehouse.cjs). README.md's configuration table lists the same
 * ones; cli/environment.test.ts keeps the three in step.
 */
export const SERVER_SETTINGS: readonly Setting[] = [
  {
    name: 'PORT',
    description: 'The port to listen on when --port is not given',
    fallback: '3000',
  },
  DATABASE_URL,
  PUBLIC_URL,
  {
    name: 'SMTP_HOST',
    description:
      'The SMTP server that delivers e-mail. Without it the server refuses to start, unless ' +
      'GATEHOUSE_DEV_INBOX=true asks for the dev inbox',
    fallback: 'none',
  },
  {
    name: 'SMTP_PORT',
    description: 'The SMTP server’s port',
    fallback: '587, or 465 with SMTP_SECURE=true',
  },
  {
    name: 'SMTP_SECURE',
    description: 'true to speak TLS from the start of the SMTP connection (usually port 465)',
    fallback: 'false',
  },
  { name: 'SMTP_USER', description: 'The SMTP login’s user name', fallback: 'none' },
  { name: 'SMTP_PASS', description: 'The SMTP login’s password', fallback: 'none' },
  {
    name: 'GATEHOUSE_DEV_INBOX',
    description:
      'true turns on the dev inbox at /_dev/inbox, which shows every e-mail and text message ' +
      '(sign-in links and codes included) instead of sending them. Development only: refused at ' +
      'start with a live project or an https PUBLIC_URL, closed while any project is live, and ' +
      'answering only requests from this machine to localhost',
    fallback: 'off',
  },
  { name: 'EMAIL_FROM', description: 'The sender of e-mails', fallback: DEFAULT_EMAIL_FROM },
  SERVER_KEY,
  {
    name: 'SMS_PROVIDER_URL',
    description:
      'An HTTP SMS provider for MFA codes: each text is POST {url} with JSON {to, from, body}',
    fallback:
      'none; texts then go to the dev inbox when it is on, and otherwise sending one answers ' +
      '503 sms_delivery_failed',
  },
  {
    name: 'SMS_PROVIDER_TOKEN',
    description: 'Sent to the SMS provider as Authorization: Bearer {token}',
    fallback: 'empty',
  },
  { name: 'SMS_FROM', description: 'The sender number or id of text messages', fallback: 'empty' },
  {
    name: 'PASSWORD_BREACH_RANGE_URL',
    description:
      'The base URL of a k-anonymity range API for breached passwords (GET {url}/range/{sha1 ' +
      'prefix}, e.g. https://api.pwnedpasswords.com); an offline list is always checked',
    fallback: 'none; only the offline list is checked',
  },
  {
    name: 'CAPTCHA_VERIFY_URL',
    description:
      'A siteverify-compatible endpoint that checks every captcha token instead of the ' +
      'project’s provider’s own (a proxy, or a stand-in)',
    fallback: 'the provider’s: Turnstile, reCAPTCHA or hCaptcha siteverify',
  },
  {
    name: 'CAPTCHA_TIMEOUT_MS',
    description:
      'How long the captcha provider may take to check a token before the call fails with 503 ' +
      'captcha_unavailable',
    fallback: '5000',
  },
  {
    name: 'TRUST_PROXY',
    description:
      'The reverse proxies in front of the server, so that per-IP rate limits see client ' +
      'addresses: their addresses or CIDR ranges (10.0.0.0/8,127.0.0.1, preferred), or their ' +
      'number (1, only when the server cannot be reached except through them). true is refused: ' +
      'it would let every client pick its own address',
    fallback: 'the socket’s address is the client’s',
  },
  {
    name: 'SESSION_MAX_LIFETIME_MINUTES',
    description:
      'A session’s absolute lifetime from its start, in whole minutes (at least 5); refreshes ' +
      'never extend it',
    fallback: `${DEFAULT_SESSION_MAX_LIFETIME_MINUTES} (30 days)`,
  },
  {
    name: 'EVENT_RETENTION_DAYS',
    description:
      'How many days telemetry events (/sdk/v1/events) are kept before housekeeping deletes ' +
      'them, in whole days (at least 1)',
    fallback: String(DEFAULT_EVENT_RETENTION_DAYS),
  },
  {
    name: 'BODY_LIMIT_BYTES',
    description:
      'The largest request body accepted, in bytes (at least 1024); larger ones are answered 400. ' +
      'The SAML ACS and SSO metadata routes keep their own 2 MB limit',
    fallback: `${DEFAULT_BODY_LIMIT_BYTES} (256 KiB)`,
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    description:
      'How long a client may take to send its request, in milliseconds (at least 1000, or 0 for ' +
      'no limit); slower clients are answered 408 and disconnected',
    fallback: String(DEFAULT_REQUEST_TIMEOUT_MS),
  },
  {
    name: 'SHUTDOWN_GRACE_MS',
    description:
      'After SIGTERM or SIGINT the server stops accepting connections and lets requests in ' +
      'flight finish for this long, in milliseconds, before closing them and the database',
    fallback: String(DEFAULT_SHUTDOWN_GRACE_MS),
  },
  {
    name: 'METRICS_TOKEN',
    description:
      'A token (at least 16 characters) that lets a caller read GET /metrics from any address ' +
      'with Authorization: Bearer {token}',
    fallback: 'none; only callers on this machine (loopback) may read /metrics',
  },
  {
    name: 'UV_THREADPOOL_SIZE',
    description:
      'Worker threads for password hashing; the gatehouse command sets it to the core count ' +
      'before anything starts the pool',
    fallback: 'one per core, at least 2',
  },
];
