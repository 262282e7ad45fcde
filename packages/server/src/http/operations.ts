/** What operators, load balancers and scrapers call: liveness, readiness, metrics, and the error reference page. */
import { ENDPOINTS, type ResponseOf } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.js';
import { pendingMigrations } from '../store/migrations.js';
import { errorReferencePage } from './error-reference.js';
import { ApiError } from './errors.js';
import { metricsAccess, type ServerMetrics } from './metrics.js';
import { rawRoute } from './route.js';

/**
 * Registers `/healthz`, `/readyz`, `/metrics` and `/docs/errors`.
 *
 * @example
 * registerOperations(app, ctx, metrics);
 */
export function registerOperations(
  app: FastifyInstance,
  ctx: Context,
  metrics: ServerMetrics,
): void {
  rawRoute(app, ENDPOINTS.healthz, async () => ({ status: 'ok' }));

  rawRoute(app, ENDPOINTS.readyz, async (_request, reply) => {
    let problem: string;
    try {
      await sql`select 1`.execute(ctx.db);
      const pending = await pendingMigrations(ctx.db, ctx.migrationSchema);
      // SMTP is a detail, not a condition: an instance that cannot send mail still serves
      // sessions and queues what it must send (docs/deploy.md, "Health checks").
      const smtp: ResponseOf<typeof ENDPOINTS.readyz>['smtp'] = ctx.mailer.health();
      if (pending.length === 0) return { status: 'ready', smtp };
      problem = `migrations not applied: ${pending.join(', ')}`;
    } catch (error) {
      ctx.log.warn({ err: error }, 'readiness check failed');
      problem = 'the database does not answer';
    }
    return reply.code(503).send({ status: 'not ready', problem, smtp: ctx.mailer.health() });
  });

  // Loopback callers, or anyone with the metrics token (see metricsAccess).
  rawRoute(app, ENDPOINTS.metrics, async (request, reply) => {
    const access = metricsAccess(
      { remoteAddress: request.socket.remoteAddress, headers: request.headers },
      ctx.config.metricsToken,
    );
    if (access === 'unauthorized') {
      throw new ApiError(
        'unauthorized_credentials',
        'Send the metrics token as Authorization: Bearer {token}.',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      );
    }
    if (access === 'forbidden') {
      throw new ApiError(
        'unauthorized_action',
        'Metrics are served to this machine only; set METRICS_TOKEN to read them from elsewhere.',
      );
    }
    return reply
      .type('text/plain; version=0.0.4; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(await metrics.exposition());
  });

  let page: string | null = null;
  rawRoute(app, ENDPOINTS.errorReference, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send((page ??= errorReferencePage())),
  );
}
