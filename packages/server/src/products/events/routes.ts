/** POST /sdk/v1/events: no Authorization; a JSON array of telemetry items; `{"data":{}}`, 4xx for misuse, never 5xx. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { rawRoute } from '../../http/route.js';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { parseBody } from '../../http/validate.js';
import { recordEvents } from './service.js';

/** A batch of 15 items is a few kilobytes; this bounds what one request can make us parse. */
const EVENTS_BODY_LIMIT = 64 * 1024;

/** Registers the events route. */
export function registerEvents(app: FastifyInstance, ctx: Context): void {
  rawRoute(
    app,
    ENDPOINTS.events,
    async (request) => {
      // Anyone may call it, without credentials: the per-IP limit is the only brake on flooding.
      await enforceRateLimits(ctx, [
        {
          key: `events:ip:${request.ip}`,
          limit: ctx.config.rateLimits.eventBatchesPerIpPerMinute,
          windowSeconds: 60,
        },
      ]);
      const items = parseBody(ENDPOINTS.events.body, request.body ?? null);
      try {
        // Malformed items are dropped like items of unknown projects: telemetry never fails a page.
        await recordEvents(ctx, items);
      } catch (error) {
        // The client ignores the answer; a failure to file telemetry is ours to log, not a 5xx.
        request.log.error({ err: error }, 'storing telemetry events failed');
      }
      return { data: {} };
    },
    // Telemetry never fails a page, so an item nested however deep is answered like any other
    // (the service drops the nesting); the body limit bounds the parse to a few milliseconds.
    { bodyLimit: EVENTS_BODY_LIMIT, maxJsonDepth: EVENTS_BODY_LIMIT / 2 },
  );
}
