/** The events product's store: telemetry events as received, per project. */
import type { Db } from '../../context.js';
import type { EventsTable } from '../../store/schema.js';

/** Stores a batch of events in one statement. */
export async function insertEvents(db: Db, rows: readonly EventsTable[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('events')
      .values([...rows])
      .execute();
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
