/** Assembles the server: store, keys, mailer, HTTP hooks, error model and every product's routes. */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { environmentOf } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { resolveConfig, type ServerConfig } from '../config.js';
import { registerBootstrap } from '../products/bootstrap/routes.js';
import { registerDevInbox } from '../products/dev-inbox/routes.js';
import { assertDevInboxMayStart } from '../products/dev-inbox/service.js';
import { registerDirectory } from '../products/directory/routes.js';
import { registerDiscovery } from '../products/discovery/routes.js';
import { registerEvents } from '../products/events/routes.js';
import { registerMagicLinks } from '../products/magic-links/routes.js';
import { registerManagement } from '../products/management/routes.js';
import { registerMembers } from '../products/members/routes.js';
import { registerOrganizations } from '../products/organizations/routes.js';
import { registerOtpSms } from '../products/otp-sms/routes.js';
import { registerRecoveryCodes } from '../products/recovery-codes/routes.js';
import { registerTotp } from '../products/totp/routes.js';
import { registerPasswords } from '../products/passwords/routes.js';
import { registerRbac } from '../products/rbac/routes.js';
import type { Admin } from '../products/management/admin.js';
import { openRuntime } from '../runtime.js';
import { registerSessions } from '../products/sessions/routes.js';
import { registerOAuth } from '../products/oauth/routes.js';
import { registerCaptcha } from '../products/captcha/routes.js';
import { registerDomains } from '../products/domains/routes.js';
import { registerServicesPage } from '../products/services-page/routes.js';
import { registerSso, registerSsoConnections } from '../products/sso/routes.js';
import { assertMailDeliverable } from '../delivery/email.js';
import { mailBacklog } from '../delivery/mail-queue.js';
import { answerJson } from './answer-json.js';
import { parseJsonBody } from './json-body.js';
import { nulChecks, type JsonNulCheck } from './nul-guard.js';
import { registerOpenApi } from './openapi.js';
import { registerOperations } from './operations.js';
import { installMetrics, ServerMetrics } from './metrics.js';
import { applyCorsHeaders } from './cors.js';
import { ApiError, errorBody, schemaError } from './errors.js';
import { basicOf } from './auth.js';
import { loggerOptions, logRefusal, requestLogger, RequestLines } from './logging.js';
import { routeOf } from './route-of.js';
import { installRequestHook } from './request-hook.js';
import { sendNotFoundPage } from './pages.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Administration of projects, organizations and members. */
    gatehouse: Admin;
    /** Every route registered, as `METHOD /path`: the OpenAPI document is checked against it. */
    gatehouseRoutes: ReadonlySet<string>;
  }
}

/** Request ids carry the environment of the project the request names, when it names one. */
function requestId(raw: IncomingMessage): string {
  const source = basicOf(raw)?.user ?? raw.url ?? '';
  const env = environmentOf(source) ?? 'test';
  return `request-id-${env}-${randomUUID()}`;
}

/** Why Node's HTTP parser refused a request, for the error body (its codes are `HPE_*`). */
const CLIENT_ERRORS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'The request headers are too large.',
};

const HEAD = Buffer.from('HEAD ');

/**
 * Requests Node's HTTP parser refuses (headers too large, bad framing, invalid characters) never
 * reach Fastify's hooks: answer them with the same flat error body as every other failure, on a
 * connection that is then closed, instead of Fastify's own `{error, message, statusCode}`.
 */
function answerClientError(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
  docsBase: string,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    // An answer to HEAD has no body, or the client would read it as the next response.
    const head = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).equals(HEAD);
    const id = `request-id-test-${randomUUID()}`;
    // A client too slow to send its request is told so (408); anything else is malformed (400).
    const apiError =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('request_timeout', 'The request took too long to arrive.')
        : schemaError([
            {
              dataPath: '',
              message: CLIENT_ERRORS[error.code ?? ''] ?? 'The request is malformed HTTP.',
            },
          ]);
    const body = JSON.stringify(errorBody(apiError, id, docsBase));
    const reason = apiError.status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${apiError.status} ${reason}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${id}\r\n` +
        `X-Content-Type-Options: nosniff\r\n` +
        `Connection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Fastify's `trustProxy` for the configured proxies. A hop count trusts that many addresses from
 * the socket's end of `X-Forwarded-For` (Fastify 5 would ignore a bare number): with one proxy
 * that appends the client's address, the client is its rightmost entry, whatever it wrote itself.
 */
function proxyTrust(
  trust: false | number | string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * Node's settings that make `requestTimeout` hold. Node looks for overdue requests only every
 * `connectionsCheckingInterval` (30 s by default, which would let a trickled request live up to
 * twice its timeout): a quarter of the timeout, 1 to 30 s; a sweep over open connections is
 * cheap. And Node enforces the timeout on a trickled body only when `headersTimeout` (default
 * 60 s) is not longer than it.
 */
function requestTimeouts(requestTimeoutMs: number): {
  connectionsCheckingInterval: number;
  headersTimeout?: number;
} {
  if (requestTimeoutMs === 0) return { connectionsCheckingInterval: 30_000 };
  return {
    connectionsCheckingInterval: Math.min(30_000, Math.max(1000, Math.floor(requestTimeoutMs / 4))),
    headersTimeout: Math.min(60_000, requestTimeoutMs),
  };
}

/**
 * Parses JSON bodies, refusing one that holds NUL (`nulInJson`); an empty body is no body (GET,
 * DELETE and revoke send the JSON type anyway).
 */
function installBodyParsers(app: FastifyInstance, nulInJson: JsonNulCheck): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const parsed = parseJsonBody(text, routeOf(request).config.maxJsonDepth);
    if (!parsed.ok) {
      done(schemaError([{ dataPath: '', message: parsed.message }]), undefined);
      return;
    }
    done(nulInJson(request, text, parsed.value) ?? null, parsed.value);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    done(
      schemaError([{ dataPath: '', message: 'Content-Type must be application/json' }]),
      undefined,
    );
  });
}

/** Malformed URLs are answered before any hook runs: give them the same headers and body. */
function answerMalformedUrl(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  docsBase: string,
): void {
  void reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
  if (request.url.startsWith('/sdk/v1')) applyCorsHeaders(request, reply);
  const apiError = schemaError([{ dataPath: '', message: `The URL is malformed (${error.code})` }]);
  void reply
    .code(apiError.status)
    .type('application/json; charset=utf-8')
    .send(errorBody(apiError, request.id, docsBase));
}

/** Every failure leaves as the flat JSON error body; nothing escapes as HTML or a bare 500. */
function installErrorModel(app: FastifyInstance, docsBase: string): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (
      typeof error.statusCode === 'number' &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      // Framework-level rejections (body too large, bad media type…) are the caller's input.
      apiError = schemaError([{ dataPath: '', message: error.message }]);
    } else {
      request.log.error({ err: error, req: request }, 'unhandled error');
      apiError = new ApiError(
        'internal_server_error',
        'Something went wrong on our side. Please try again.',
      );
    }
    // An unhandled error has its line already, with the error itself.
    if (apiError.errorType !== 'internal_server_error' || error instanceof ApiError) {
      logRefusal(request, apiError);
    }
    return reply
      .code(apiError.status)
      .headers(apiError.headers ?? {})
      .type('application/json; charset=utf-8')
      .send(errorBody(apiError, request.id, docsBase));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const read = request.method === 'GET' || request.method === 'HEAD';
    // Browsers ask every page for an icon: there is none, and that is not an error.
    if (read && path === '/favicon.ico') {
      return reply.code(204).header('Cache-Control', 'public, max-age=86400').send();
    }
    // A browser's navigation outside the APIs gets a page; API clients get the JSON error body.
    const api = /^\/(sdk|v1)(\/|$)/.test(path);
    if (read && !api && (request.headers.accept ?? '').includes('text/html')) {
      return sendNotFoundPage(request, reply, path);
    }
    const apiError = new ApiError(
      'endpoint_not_found',
      `There is no endpoint ${request.method} ${path}.`,
    );
    return reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(errorBody(apiError, request.id, docsBase));
  });
}

/**
 * Creates a server: database migrated, signing key loaded, routes registered. Call `listen` on
 * it (more routes may be added first); closing it closes the database.
 *
 * @example
 * const app = await createServer({ databaseUrl: 'sqlite:./data/gatehouse.db' });
 * await app.listen({ port: 3000 });
 */
export async function createServer(config: ServerConfig = {}): Promise<FastifyInstance> {
  const resolved = resolveConfig(config);
  assertMailDeliverable(resolved);
  const app = Fastify({
    logger: loggerOptions(resolved.logger),
    // Request lines only when asked for; a request's child logger made only when it logs.
    logController: new RequestLines(resolved.logRequests),
    ...(resolved.logger === false ? {} : { childLoggerFactory: requestLogger }),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: resolved.bodyLimitBytes,
    requestTimeout: resolved.requestTimeoutMs,
    http: requestTimeouts(resolved.requestTimeoutMs),
    trustProxy: proxyTrust(resolved.trustProxy),
    // Malformed URLs are answered before any hook runs: give them the same headers and body.
    frameworkErrors: (error, request, reply) =>
      answerMalformedUrl(error, request, reply as FastifyReply, resolved.docsBase),
    clientErrorHandler: (error, socket) => answerClientError(error, socket, resolved.docsBase),
  });
  const runtime = await openRuntime(resolved, app.log);
  try {
    const { ctx } = runtime;
    if (resolved.devInbox) await assertDevInboxMayStart(ctx.db, resolved.publicUrl);
    // Checks SMTP (waiting a few seconds at most) and starts delivering queued e-mail.
    await ctx.mailer.start();
    app.decorate('gatehouse', runtime.admin);
    const routes = new Set<string>();
    app.decorate('gatehouseRoutes', routes);
    app.addHook('onRoute', (options) => {
      for (const method of [options.method].flat()) routes.add(`${method} ${options.url}`);
    });
    const metrics = new ServerMetrics(runtime, {
      stats: runtime.delivery,
      backlog: () => mailBacklog(ctx.db),
      smtp: () => ctx.mailer.health(),
      now: () => ctx.now(),
    });
    installMetrics(app, metrics);
    // Telemetry's batches are never refused whole: its own checks drop the items that hold NUL.
    const nul = nulChecks([ENDPOINTS.events.path]);
    installBodyParsers(app, nul.json);
    app.setReplySerializer(answerJson);
    installRequestHook(app, ctx, {
      https: resolved.publicUrl.startsWith('https:'),
      nulInUrl: nul.url,
    });
    installErrorModel(app, resolved.docsBase);
    registerBootstrap(app, ctx);
    registerEvents(app, ctx);
    registerOrganizations(app, ctx);
    registerMembers(app, ctx);
    registerMagicLinks(app, ctx);
    registerDiscovery(app, ctx);
    registerPasswords(app, ctx);
    registerSessions(app, ctx);
    registerOtpSms(app, ctx);
    registerTotp(app, ctx);
    registerRecoveryCodes(app, ctx);
    registerSso(app, ctx);
    registerSsoConnections(app, ctx);
    registerOAuth(app, ctx);
    registerCaptcha(app, ctx);
    registerDomains(app, ctx);
    registerManagement(app, ctx);
    registerDirectory(app, ctx);
    registerRbac(app, ctx);
    registerServicesPage(app, ctx);
    registerOpenApi(app);
    registerOperations(app, ctx, metrics);
    if (resolved.devInbox) registerDevInbox(app, ctx);
    // Fastify stops the HTTP server, and waits for the requests in flight, before this runs.
    app.addHook('onClose', async () => {
      await runtime.close();
      app.log.info({}, 'database closed');
    });
    // Not booted yet on purpose: a host (the demo app) may still register its own routes and
    // plugins; `listen` or `inject` boots it.
    return app;
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
