/**
 * The server's log options: what a request line records, and what is never written. Secrets
 * travel in `Authorization` (secret keys, session tokens), cookies, bodies (passwords, codes,
 * tokens) and the query strings of navigations (OAuth and OIDC `code` and `state`); none of them
 * may reach the log, whatever a handler or plugin logs.
 */
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';

/** What a child logger binds (the request id, for a request's), and its options (pino's). */
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/** Where log lines go instead of stdout (tests capture them). */
export interface LogDestination {
  write(line: string): void;
}

const CENSOR = '[Redacted]';

/**
 * Paths pino replaces with `[Redacted]` in every line: headers and bodies, should anything log a
 * request or reply whole, and secret fields of any object logged one level deep.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.body',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'body',
  ...[
    'password',
    'password_hash',
    'secret',
    'client_secret',
    'code_verifier',
    'recovery_code',
    'token',
    'session_token',
    'session_jwt',
    'intermediate_session_token',
    'magic_links_token',
    'password_reset_token',
    'discovery_magic_links_token',
    'sso_token',
    'oauth_token',
    'id_token',
    'access_token',
    'refresh_token',
    'credential',
    'SAMLResponse',
  ].flatMap((name) => [name, `*.${name}`]),
  // Only at the top: nested, `code` is an error's code (`err.code`), which the log needs.
  'code',
];

/**
 * The URL with every query value replaced: navigations carry one-time codes and state there
 * (`/v1/b2b/public/oauth/google/callback?code=…&state=…`). The parameter names stay, for tracing.
 *
 * @example
 * redactUrl('/cb?code=abc&state=x'); // '/cb?code=[Redacted]&state=[Redacted]'
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : `${pair.slice(0, eq)}=${CENSOR}`;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** A request as a log line records it: Fastify's default fields, the query values redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

/**
 * Fastify's `logger` option for the configured logger: off, stdout, or a given destination.
 *
 * @example
 * Fastify({ logger: loggerOptions(true) });
 */
export function loggerOptions(
  logger: boolean | LogDestination,
): Exclude<FastifyServerOptions['logger'], undefined> {
  if (logger === false) return false;
  return {
    level: 'info',
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    serializers: { req: serializeRequest },
    ...(logger === true ? {} : { stream: logger }),
  };
}

/**
 * Fastify's `childLoggerFactory`: the logger of one request, which makes pino's child logger (the
 * request id bound to it) only when the request logs something. Fastify asks for one on every
 * request, and a pino child costs microseconds (its bindings serialized and redacted); most
 * requests log nothing, and the session check, which every tab and backend repeats, is a
 * request of about 70 µs (bench/RESULTS.md).
 *
 * @example
 * Fastify({ logger: loggerOptions(true), childLoggerFactory: requestLogger });
 */
export function requestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options);
}

/** A child logger made on its first use (see {@link requestLogger}). */
class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.#logger().fatal(obj, msg, ...args);
  }

  error(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.#logger().error(obj, msg, ...args);
  }

  warn(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.#logger().warn(obj, msg, ...args);
  }

  info(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.#logger().info(obj, msg, ...args);
  }

  debug(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.#logger().debug(obj, msg, ...args);
  }

  trace(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.#logger().trace(obj, msg, ...args);
  }

  silent(): void {
    // Pino's `silent` writes nothing.
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}
