/** Registers a route from its entry in the endpoint table: method, path, body schema, response type. */
import type { BodyOf, Endpoint, ParamsOf, ResponseOf } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { parseBody } from './validate.js';

/** A request to an endpoint, with its path parameters typed from the entry's path. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{ Params: ParamsOf<E['path']> }>;

/** What a handler may return: the envelope of the entry's response type. */
export type EndpointReply<E extends Endpoint> = Promise<{ data: ResponseOf<E> }>;

/**
 * Registers the handler of one endpoint. `parse()` validates the body against the entry's schema
 * (400 `invalid_request` with the issues), called by the handler once the caller is known, so
 * that an unauthorized caller never learns what a valid body looks like. The compiler checks the
 * answer against the entry's response type.
 *
 * @example
 * route(app, ENDPOINTS.organizationsSearch, async (request, parse) => {
 *   const caller = await sdkCaller(ctx, request);
 *   const body = parse();
 *   return ok(request, { organization: … });
 * });
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (request: EndpointRequest<E>, parse: () => BodyOf<E>) => EndpointReply<E>,
  options: Pick<RouteShorthandOptions, 'bodyLimit'> = {},
): void {
  const parser = (request: EndpointRequest<E>) => () =>
    (endpoint.body === null ? undefined : parseBody(endpoint.body, request.body)) as BodyOf<E>;
  rawRoute(app, endpoint, (request) => handler(request, parser(request)), options);
}

/**
 * Registers an endpoint whose answer is not the `{data}` envelope of the SDK (the JWKS), or that
 * needs the reply object.
 *
 * @example
 * rawRoute(app, ENDPOINTS.jwks, async () => ctx.keys.jwks());
 */
export function rawRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<unknown>,
  options: Pick<RouteShorthandOptions, 'bodyLimit'> = {},
): void {
  app.route<{ Params: ParamsOf<E['path']> }>({
    method: endpoint.method,
    url: endpoint.path,
    ...options,
    handler,
  });
}
