/**
 * Prometheus metrics at `GET /metrics`: requests and their latency by route, sign-ins by method and
 * outcome, rate-limit refusals, the database pool, and e-mail and SMS delivery. Counted in hooks that only bump counters;
 * the pool and process figures are read when scraped.
 */
import { isIP } from 'node:net';
import { ENDPOINTS, type Endpoint } from '@gatehouse/protocol/endpoints';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preSerializationHookHandler,
} from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { safeEqual } from '../crypto/random.js';
import type { Runtime } from '../runtime.js';
import { registerDeliveryMetrics, type DeliverySource } from './delivery-metrics.js';
import { RequestMetrics } from './request-metrics.js';
import { routeOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the routes that finish a sign-in: the method their outcome is counted under. */
    signInMethod?: SignInMethod;
  }
}

/** How a sign-in was made: the `method` label of `gatehouse_sign_ins_total`. */
export type SignInMethod =
  'password' | 'magic_link' | 'sso' | 'oauth' | 'discovery' | 'sms_otp' | 'totp' | 'recovery_code';

/**
 * The endpoints whose answer is a sign-in result (a session, or an IST asking for MFA), by the
 * factor they check. Discovery's exchange and organization creation finish a sign-in begun by a
 * discovery link or provider; the discovery authentications themselves only list organizations.
 */
const SIGN_IN_ENDPOINTS: ReadonlyArray<readonly [Endpoint, SignInMethod]> = [
  [ENDPOINTS.passwordsAuthenticate, 'password'],
  [ENDPOINTS.magicLinksAuthenticate, 'magic_link'],
  [ENDPOINTS.ssoAuthenticate, 'sso'],
  [ENDPOINTS.oauthAuthenticate, 'oauth'],
  [ENDPOINTS.discoveryExchange, 'discovery'],
  [ENDPOINTS.discoveryOrganizationsCreate, 'discovery'],
  [ENDPOINTS.smsAuthenticate, 'sms_otp'],
  [ENDPOINTS.totpAuthenticate, 'totp'],
  [ENDPOINTS.recoveryCodesRecover, 'recovery_code'],
];

const SIGN_IN_METHODS: ReadonlyMap<string, SignInMethod> = new Map(
  SIGN_IN_ENDPOINTS.map(([endpoint, method]) => [`${endpoint.method} ${endpoint.path}`, method]),
);

/** The outcome of one sign-in call: the `outcome` label. */
export type SignInOutcome = 'success' | 'mfa_required' | 'failure' | 'error';

/** The route label of requests that matched no route (404s), so stray URLs add no series. */
const UNMATCHED_ROUTE = 'unmatched';

/** Latency buckets in seconds: sub-millisecond reads up to password hashing under load. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Process figures (CPU, memory, event-loop lag, GC) belong to the process, not to one server:
 * collected once into a registry of their own, so that several servers in one process (tests)
 * neither collide nor start a collector each.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** One server's metrics, in a registry of its own. */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics(this.registry, {
    requests: {
      name: 'gatehouse_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code.',
    },
    duration: {
      name: 'gatehouse_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route pattern and method.',
      buckets: LATENCY_BUCKETS,
    },
  });
  private readonly signIns = new Counter({
    name: 'gatehouse_sign_ins_total',
    help:
      'Sign-in calls by factor and outcome: success (a session), mfa_required (a second factor ' +
      'is needed), failure (refused, rate limits included) or error (the server failed).',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'gatehouse_rate_limit_rejections_total',
    help: 'Requests refused with 429 too_many_requests by a rate limit or throttle, by route.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  /** `delivery`: where the e-mail and SMS figures come from (none: they are not exposed). */
  constructor(database: Pick<Runtime, 'dialect' | 'poolStats'>, delivery?: DeliverySource) {
    if (delivery) registerDeliveryMetrics(this.registry, delivery);
    new Gauge({
      name: 'gatehouse_database_info',
      help: 'The kind of database in use (always 1).',
      labelNames: ['dialect'] as const,
      registers: [this.registry],
    }).set({ dialect: database.dialect }, 1);
    // SQLite has one synchronous connection and no pool: nothing there can wait or run out.
    if (database.dialect !== 'postgres') return;
    const pool = (
      name: string,
      help: string,
      read: (stats: NonNullable<ReturnType<Runtime['poolStats']>>) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = database.poolStats();
          if (stats) this.set(read(stats));
        },
      });
    pool(
      'gatehouse_db_pool_connections',
      'PostgreSQL connections open, idle or in use.',
      (s) => s.total,
    );
    pool(
      'gatehouse_db_pool_idle_connections',
      'PostgreSQL connections open and idle.',
      (s) => s.idle,
    );
    pool(
      'gatehouse_db_pool_waiting_queries',
      'Queries waiting for a PostgreSQL connection, all being in use.',
      (s) => s.waiting,
    );
    pool('gatehouse_db_pool_max_connections', 'The most connections the pool opens.', (s) => s.max);
  }

  /** Counts an answered request; called from `onResponse`. */
  observeResponse(request: FastifyRequest, reply: FastifyReply): void {
    const route = routeOf(request).url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    this.requests.observe(route, request.method, status, reply.elapsedTime / 1000);
    if (status === 429) this.rateLimited.inc({ route });
  }

  /** Counts the outcome of a sign-in call. */
  countSignIn(method: SignInMethod, outcome: SignInOutcome): void {
    this.signIns.inc({ method, outcome });
  }

  /** The text exposition of this server's metrics and the process's. */
  async exposition(): Promise<string> {
    const [own, shared] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${shared}`;
  }
}

/**
 * The outcome of a sign-in call, read from the answer about to be serialized: result F
 * (`member_authenticated: true`), result AM variant B (`false`: MFA remains), or the flat error
 * body of a refusal (4xx) or a server failure (5xx).
 */
export function signInOutcome(payload: unknown, statusCode: number): SignInOutcome {
  const data = (payload as { data?: { member_authenticated?: unknown } } | null)?.data;
  if (statusCode < 400 && typeof data?.member_authenticated === 'boolean') {
    return data.member_authenticated ? 'success' : 'mfa_required';
  }
  return statusCode >= 500 ? 'error' : 'failure';
}

/**
 * Logs a sign-in decision (OWASP ASVS V7.2): its method and outcome, and the member and
 * organization it answered for. Nothing the caller typed is logged, so no password or mistyped
 * secret reaches the log; a refused attempt also gets its line from the error handler
 * (`logRefusal`).
 */
function logSignIn(
  request: FastifyRequest,
  method: SignInMethod,
  outcome: SignInOutcome,
  payload: unknown,
): void {
  const data = (
    payload as {
      data?: { member_id?: unknown; organization?: { organization_id?: unknown } };
    } | null
  )?.data;
  const organizationId = data?.organization?.organization_id;
  const line = {
    sign_in: { method, outcome },
    ...(typeof data?.member_id === 'string' ? { member_id: data.member_id } : {}),
    ...(typeof organizationId === 'string' ? { organization_id: organizationId } : {}),
  };
  if (outcome === 'error') request.log.error(line, 'sign-in failed');
  else if (outcome === 'failure') request.log.warn(line, 'sign-in refused');
  else request.log.info(line, 'sign-in');
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** What {@link metricsAccess} looks at: the socket's address and the request's headers. */
export interface MetricsCaller {
  remoteAddress: string | undefined;
  headers: {
    authorization?: string | undefined;
    forwarded?: string | undefined;
    'x-forwarded-for'?: string | string[] | undefined;
    'x-real-ip'?: string | string[] | undefined;
  };
}

/**
 * Whether a caller may read the metrics: `allowed`, `unauthorized` (a token is configured and the
 * caller did not send it: 401) or `forbidden` (no token configured, and the caller is not on this
 * machine: 403). A caller is on this machine when the socket is loopback and the request names
 * no forwarding headers: a proxy on the same host would otherwise make every visitor look
 * local. `X-Forwarded-For` never makes a caller local. The token is compared in constant time.
 *
 * @example
 * metricsAccess({ remoteAddress: '10.0.0.5', headers: { authorization: 'Bearer …' } }, token);
 */
export function metricsAccess(
  caller: MetricsCaller,
  token: string | null,
): 'allowed' | 'unauthorized' | 'forbidden' {
  const { headers } = caller;
  const forwarded = Boolean(
    headers.forwarded || headers['x-forwarded-for'] || headers['x-real-ip'],
  );
  if (!forwarded && isLoopback(caller.remoteAddress)) return 'allowed';
  if (token === null) return 'forbidden';
  const match = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? '');
  return match?.[1] !== undefined && safeEqual(match[1], token) ? 'allowed' : 'unauthorized';
}

/**
 * Counts every request and sign-in (`registerOperations` serves the figures). Call before the
 * routes are registered: the sign-in routes are marked as they are added.
 *
 * @example
 * installMetrics(app, new ServerMetrics(runtime));
 */
export function installMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  // Object answers only (results and error bodies): a sign-in never answers anything else.
  const countSignIn: preSerializationHookHandler = (request, reply, payload, done) => {
    const method = routeOf(request).config.signInMethod;
    if (method) {
      const outcome = signInOutcome(payload, reply.statusCode);
      metrics.countSignIn(method, outcome);
      logSignIn(request, method, outcome, payload);
    }
    done(null, payload);
  };
  // On the sign-in routes alone: every other answer skips the hook, and Fastify's run of it.
  app.addHook('onRoute', (options) => {
    if (typeof options.method !== 'string') return;
    const method = SIGN_IN_METHODS.get(`${options.method} ${options.url}`);
    if (!method) return;
    options.config = { ...options.config, signInMethod: method };
    options.preSerialization = [options.preSerialization ?? []].flat().concat(countSignIn);
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeResponse(request, reply);
    done();
  });
}
