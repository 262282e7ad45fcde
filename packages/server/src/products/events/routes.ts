/** POST /sdk/v1/events: no Authorization; a JSON array of telemetry items; always `{"data":{}}`. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { parseBody } from '../../http/validate.js';
import { recordEvents } from './service.js';

/** Batches are small (the client flushes at 15); the cap keeps one request from flooding the table. */
const EventsBody = z.array(z.unknown()).max(100, 'must have at most 100 items');
const Item = z.looseObject({
  telemetry: z.unknown().optional(),
  event: z.looseObject({
    public_token: z.string().max(200),
    event_name: z.string().min(1).max(200),
  }),
});

/** Registers the events route. */
export function registerEvents(app: FastifyInstance, ctx: Context): void {
  app.post('/sdk/v1/events', async (request) => {
    const items = parseBody(EventsBody, request.body ?? null);
    // Malformed items are dropped like items of unknown projects: telemetry never fails a page.
    const wellFormed = items.flatMap((item) => {
      const parsed = Item.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    await recordEvents(ctx, wellFormed);
    return { data: {} };
  });
}
