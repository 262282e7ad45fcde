/** What Fastify knows of the route a request matched, read from it once per request. */
import type { FastifyRequest } from 'fastify';

const ROUTE = Symbol('gatehouse.route');

type RouteOptions = FastifyRequest['routeOptions'];
type WithRoute = FastifyRequest & { [ROUTE]?: RouteOptions };

/**
 * The options of the route a request matched: `url` is the path it was declared with
 * (`/sdk/v1/b2b/organizations/:organization_id`, undefined for a 404), `config` its config.
 * Fastify builds a fresh `routeOptions` object on each read; the hooks and the body parser of
 * every request (CORS, the NUL check, metrics, JSON depth) share this one read instead.
 *
 * @example
 * routeOf(request).url; // '/sdk/v1/b2b/sessions/authenticate'
 */
export function routeOf(request: FastifyRequest): RouteOptions {
  let route = (request as WithRoute)[ROUTE];
  if (route === undefined) {
    route = request.routeOptions;
    (request as WithRoute)[ROUTE] = route;
  }
  return route;
}
