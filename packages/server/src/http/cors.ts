/** CORS for the SDK API: permissive preflights, and `Access-Control-Allow-Origin` on every response. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-SDK-Client, X-SDK-Parent-Host';

/**
 * Installs the CORS hooks. Origins are checked per project once the public token is known
 * (see `auth.ts`); here every response, errors and 404s included, echoes the origin so the
 * browser lets the client read the error. Credentials are never allowed: the SDK sends none.
 */
export function installCors(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and has nothing to await, so
  // it should not cost a promise and a trip through the microtask queue each time.
  app.addHook('onRequest', (request, reply, done) => {
    applyCorsHeaders(request, reply);
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    // Answering from a callback hook means sending without calling `done`.
    void reply
      .code(204)
      .header('Access-Control-Allow-Methods', ALLOW_METHODS)
      .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
      .header('Access-Control-Max-Age', '600')
      .send();
  });
}

/**
 * Sets the headers every response carries. Also used by the handler of framework errors
 * (malformed URLs), which answers before any hook runs.
 */
export function applyCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('Access-Control-Allow-Origin', request.headers.origin ?? '*');
  void reply.header('Vary', 'Origin');
  void reply.header('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
  void reply.header('X-Request-Id', request.id);
}
