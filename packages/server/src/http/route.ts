/**
 * Registers a route from its entry in the endpoint table: method, path, credential, body schema,
 * response type. The entry's credential is enforced here, not left to each handler, and so is the
 * answer's shape: the `{data}` envelope for the browser API, flat for the management API.
 */
import type {
  BodyOf,
  Credential,
  Endpoint,
  ParamsOf,
  ResponseOf,
} from '@gatehouse/protocol/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { Context } from '../context.js';
import type { Project } from '../tenancy/projects/service.js';
import {
  pathTokenCaller,
  requiredSession,
  requiredSessionToken,
  sdkCaller,
  secretCaller,
  type SdkCaller,
  type SessionCaller,
} from './auth.js';
import { actingMember, carriesMemberSession, type ActingMember } from './acting-member.js';
import type { BodyOptions } from './json-body.js';
import { ApiError } from './errors.js';
import { parseBody } from './validate.js';

/** A request to an endpoint, with its path parameters typed from the entry's path. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{ Params: ParamsOf<E['path']> }>;

/**
 * What a handler may return: the envelope of the entry's response type. `route()` sends the
 * envelope's `data` alone, flat, for a management (`secret`) endpoint.
 */
export type EndpointReply<E extends Endpoint> = Promise<{ data: ResponseOf<E> }>;

/**
 * The caller `route()` authenticates from an endpoint's credential (docs/protocol.md §7): the
 * project for `secret`; the project and the session token, if any, for `A` and `I` (an `I`
 * handler decides between the IST in the body and the session); the project and its live
 * session for `S`; nothing for `none`.
 */
export type CallerOf<C extends Credential> = C extends 'secret'
  ? Project
  : C extends 'S'
    ? SessionCaller
    : C extends 'A' | 'I'
      ? SdkCaller
      : undefined;

/** An `S` call registered with `{ session: 'token' }`: the token was sent, its liveness unchecked. */
export interface SessionTokenCaller extends SdkCaller {
  sessionToken: string;
}

/** Options of one route. */
export interface RouteOptions extends Pick<RouteShorthandOptions, 'bodyLimit'> {
  /**
   * For an `S` endpoint whose service checks the session itself, in the query it needs anyway
   * (`sessions/authenticate` refreshes it in one): require the session token, and leave its
   * liveness to the handler.
   */
  session?: 'token';
  /**
   * For a management (`secret`) endpoint that the provider's backend SDK may call with a
   * member's session (`options.authorization`): authenticate that session, when sent, and hand
   * the handler its member as `acting`, whose permission the handler checks. A `secret` endpoint
   * without it refuses the session headers (400), so that none is ever silently ignored.
   */
  memberSession?: true;
}

/** The caller of an endpoint registered with options `O`. */
export type RouteCaller<E extends Endpoint, O> = O extends { session: 'token' }
  ? SessionTokenCaller
  : CallerOf<E['credential']>;

/** What a handler receives besides the request: the authenticated caller, and the body parser. */
export interface Call<E extends Endpoint, Caller> {
  caller: Caller;
  /**
   * Validates the body against the entry's schema (400 `invalid_request` with the issues). Only
   * the handler calls it, once the caller is authenticated (and, where it matters, authorized),
   * so that an unauthorized caller never learns what a valid body looks like.
   */
  parse: () => BodyOf<E>;
  /**
   * The member a management call registered with `{ memberSession: true }` acts as, or null
   * (no session sent, or another kind of endpoint).
   */
  acting: ActingMember | null;
}

/** `route` bound to an app and a context (see {@link router}). */
export type Route = <E extends Endpoint, const O extends RouteOptions = Record<never, never>>(
  endpoint: E,
  handler: (request: EndpointRequest<E>, call: Call<E, RouteCaller<E, O>>) => EndpointReply<E>,
  options?: O,
) => void;

/**
 * Authenticates a request as the entry's credential says. `A` and `I` calls of a `D` endpoint
 * have their captcha token checked here too, before the handler reads the body. An `A` endpoint
 * whose path names `:public_token` (the bootstrap) is authenticated by that token.
 */
async function authenticate(
  ctx: Context,
  endpoint: Endpoint,
  request: FastifyRequest,
  options: RouteOptions,
): Promise<Project | SdkCaller | undefined> {
  const captcha = { captcha: endpoint.captcha === true };
  switch (endpoint.credential) {
    case 'none':
      return undefined;
    case 'secret':
      return secretCaller(ctx, request);
    case 'A': {
      const params = request.params as Record<string, string | undefined>;
      const pathToken = params.public_token;
      return pathToken === undefined
        ? sdkCaller(ctx, request, captcha)
        : pathTokenCaller(ctx, request, pathToken);
    }
    case 'I':
      return sdkCaller(ctx, request, captcha);
    case 'S': {
      const caller = await sdkCaller(ctx, request, captcha);
      if (options.session === 'token') {
        return { ...caller, sessionToken: requiredSessionToken(caller) };
      }
      return requiredSession(ctx, caller);
    }
  }
}

/**
 * The `route` of an app: registers the handler of one endpoint, which runs once the caller is
 * authenticated as the entry's credential says (401 `unauthorized_credentials` otherwise) and
 * receives it typed from that credential. The compiler checks the answer against the entry's
 * response type.
 *
 * @example
 * const route = router(app, ctx);
 * route(ENDPOINTS.organizationsSearch, async (request, { caller, parse }) => {
 *   const body = parse();
 *   return ok(request, { organization: … });
 * });
 */
export function router(app: FastifyInstance, ctx: Context): Route {
  return function route<E extends Endpoint, const O extends RouteOptions>(
    endpoint: E,
    handler: (request: EndpointRequest<E>, call: Call<E, RouteCaller<E, O>>) => EndpointReply<E>,
    options?: O,
  ): void {
    const { session, memberSession, ...fastifyOptions }: RouteOptions = options ?? {};
    if (session !== undefined && endpoint.credential !== 'S') {
      throw new Error(`${endpoint.path}: { session } applies to session endpoints only`);
    }
    if (memberSession !== undefined && endpoint.credential !== 'secret') {
      throw new Error(`${endpoint.path}: { memberSession } applies to management endpoints only`);
    }
    app.route<{ Params: ParamsOf<E['path']> }>({
      method: endpoint.method,
      url: endpoint.path,
      ...fastifyOptions,
      handler: async (request) => {
        // The switch answers exactly the caller that CallerOf names for the entry's credential.
        const caller = (await authenticate(ctx, endpoint, request, { session })) as RouteCaller<
          E,
          O
        >;
        const parse = bodyParser(endpoint, request);
        // Only a management call may act as a member: no promise to wait for on the others.
        const acting =
          endpoint.credential === 'secret'
            ? await actingOf(ctx, request, caller, memberSession === true)
            : null;
        const reply = await handler(request, { caller, parse, acting });
        // The management API answers as the hosted provider's backend API does: the fields flat
        // beside `request_id` and `status_code` (docs/protocol.md §3), so its backend SDKs read
        // them; the browser API keeps its `{data}` envelope.
        return endpoint.credential === 'secret' ? reply.data : reply;
      },
    });
  };
}

/** The `parse` of a call: validates its body against the entry's schema when called. */
function bodyParser<E extends Endpoint>(endpoint: E, request: FastifyRequest): () => BodyOf<E> {
  // Returned, not bound to a name: nothing renames it on every request (`keepNames` builds).
  return () =>
    (endpoint.body === null ? undefined : parseBody(endpoint.body, request.body)) as BodyOf<E>;
}

/**
 * The member a management call (secret key) acts as (`{ memberSession: true }`), or null. A call
 * that carries a member's session where the endpoint takes none is refused (400): the host meant
 * it to be authorized as that member, and answering it with the secret key alone would grant
 * more than the member has.
 */
async function actingOf(
  ctx: Context,
  request: FastifyRequest,
  caller: unknown,
  memberSession: boolean,
): Promise<ActingMember | null> {
  if (memberSession) return actingMember(ctx, caller as Project, request);
  if (carriesMemberSession(request)) {
    throw new ApiError('invalid_request', 'This call does not take a member session.');
  }
  return null;
}

/** An endpoint that takes no credentials: the only kind `rawRoute` registers. */
export type OpenEndpoint = Endpoint<string, z.ZodType | null, unknown, 'none'>;

/**
 * Registers an endpoint of credential `none` whose answer is not the `{data}` envelope of the SDK
 * (the JWKS, pages, navigations), or that needs the reply object. Endpoints with a credential go
 * through {@link router}, which enforces it; an endpoint that checks a credential of its own
 * (metrics, the navigations' `public_token`) is `none` in the table and says so where it checks.
 *
 * @example
 * rawRoute(app, ENDPOINTS.jwks, async () => ctx.keys.jwks());
 */
export function rawRoute<E extends OpenEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<unknown>,
  { bodyLimit, maxJsonDepth }: Pick<RouteShorthandOptions, 'bodyLimit'> & BodyOptions = {},
): void {
  // The type says so already; this keeps a cast from registering an unauthenticated route.
  if ((endpoint.credential as Credential) !== 'none') {
    throw new Error(`${endpoint.path}: credential ${endpoint.credential} needs route()`);
  }
  app.route<{ Params: ParamsOf<E['path']> }>({
    method: endpoint.method,
    url: endpoint.path,
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    ...(maxJsonDepth === undefined ? {} : { config: { maxJsonDepth } }),
    handler,
  });
}
