/**
 * The server's log options: what a request line records, and what is never written. Secrets
 * travel in `Authorization` (secret keys, session tokens), cookies, bodies (passwords, codes,
 * tokens) and the query strings of navigations (OAuth and OIDC `code` and `state`); none of them
 * may reach the log, whatever a handler or plugin logs.
 */
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

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

/**
 * Fastify's `logController`: its two lines per request (received; answered) only with `all`
 * (`LOG_REQUESTS`); a session check answered 200 then writes nothing. Fastify's other lines (an
 * answer that failed to write, a stream or serializer that failed) are written either way, and so
 * are the refusals and failures the error handler logs ({@link logRefusal}).
 *
 * @example
 * Fastify({ logger: loggerOptions(true), logController: new RequestLines(false) });
 */
export class RequestLines extends LogController {
  readonly #all: boolean;

  constructor(all: boolean) {
    super();
    this.#all = all;
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.#all) super.incomingRequest(request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.#all || error) super.requestCompleted(error, request, reply);
  }
}

/** Answers that refuse a caller: authentication, authorization, rate limits. */
const REFUSED = new Set([401, 403, 429]);

/**
 * Logs a call answered with an error, with or without request lines: one line with the request
 * (method, path, address), the status and the `error_type`. Refusals (401, 403, 429: the
 * authentication and authorization decisions OWASP ASVS V7.2 asks to log, and rate limits) are
 * warnings, failures of ours (5xx) errors, the caller's other mistakes information. A URL that
 * names no endpoint is not logged: scanners would fill the log.
 *
 * @example
 * logRefusal(request, new ApiError('unauthorized_credentials', '…'));
 */
export function logRefusal(
  request: FastifyRequest,
  error: { errorType: string; status: number },
): void {
  const line = { req: request, error_type: error.errorType, status_code: error.status };
  if (error.status >= 500) request.log.error(line, 'request failed');
  else if (REFUSED.has(error.status)) request.log.warn(line, 'request refused');
  else request.log.info(line, 'request refused');
}
