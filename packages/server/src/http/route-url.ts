/** The declared path of the route a request matched, read from Fastify once per request. */
import type { FastifyRequest } from 'fastify';

const ROUTE_URL = Symbol('gatehouse.routeUrl');

type WithRouteUrl = FastifyRequest & { [ROUTE_URL]?: string | null };

/**
 * The path a request's route was declared with (`/sdk/v1/b2b/organizations/:organization_id`),
 * or undefined when none matched (a 404). Fastify builds a fresh `routeOptions` object on each
 * read; the hooks of every request (CORS, the NUL check, metrics) share this one read instead.
 *
 * @example
 * routeUrlOf(request); // '/sdk/v1/b2b/sessions/authenticate'
 */
export function routeUrlOf(request: FastifyRequest): string | undefined {
  const remembered = (request as WithRouteUrl)[ROUTE_URL];
  if (remembered !== undefined) return remembered ?? undefined;
  const url = request.routeOptions.url;
  (request as WithRouteUrl)[ROUTE_URL] = url ?? null;
  return url;
}
