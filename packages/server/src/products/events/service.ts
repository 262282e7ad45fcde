/** Telemetry events (§7.9): filed by public token; items of unknown projects are dropped. */
import { randomUUID } from 'node:crypto';
import { isoAt, type Context, type Db } from '../../context.js';

/** One telemetry item as received; only `event.public_token` and `event.event_name` are relied on. */
export interface TelemetryItem {
  telemetry?: unknown;
  event: { public_token: string; event_name: string } & Record<string, unknown>;
}

/** Stores the items whose public token names a project; returns how many were kept. */
export async function recordEvents(ctx: Context, items: TelemetryItem[]): Promise<number> {
  const at = isoAt(ctx.now());
  const rows = [];
  for (const item of items) {
    const project = await ctx.projects.byPublicToken(item.event.public_token);
    if (!project) continue;
    rows.push({
      id: randomUUID(),
      project_id: project.id,
      event_name: item.event.event_name,
      payload: JSON.stringify(item),
      created_at: at,
    });
  }
  if (rows.length > 0) await ctx.db.insertInto('events').values(rows).execute();
  return rows.length;
}

/** The stored events of a project, oldest first (for tests and the admin). */
export async function listEvents(
  db: Db,
  projectId: string,
): Promise<{ event_name: string; payload: unknown }[]> {
  const rows = await db
    .selectFrom('events')
    .select(['event_name', 'payload'])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ event_name: r.event_name, payload: JSON.parse(r.payload) as unknown }));
}
