/** What operators and load balancers call: liveness, readiness, and the error reference page. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.js';
import { pendingMigrations } from '../store/migrations.js';
import { errorReferencePage } from './error-reference.js';
import { rawRoute } from './route.js';

/**
 * Registers `/healthz`, `/readyz` and `/docs/errors`.
 *
 * @example
 * registerOperations(app, ctx);
 */
export function registerOperations(app: FastifyInstance, ctx: Context): void {
  rawRoute(app, ENDPOINTS.healthz, async () => ({ status: 'ok' }));

  rawRoute(app, ENDPOINTS.readyz, async (_request, reply) => {
    let problem: string;
    try {
      await sql`select 1`.execute(ctx.db);
      const pending = await pendingMigrations(ctx.db, ctx.migrationSchema);
      if (pending.length === 0) return { status: 'ready' };
      problem = `migrations not applied: ${pending.join(', ')}`;
    } catch (error) {
      ctx.log.warn({ err: error }, 'readiness check failed');
      problem = 'the database does not answer';
    }
    return reply.code(503).send({ status: 'not ready', problem });
  });

  let page: string | null = null;
  rawRoute(app, ENDPOINTS.errorReference, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send((page ??= errorReferencePage())),
  );
}
