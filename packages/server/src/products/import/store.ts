/** The import's queries: which project an id already belongs to, whatever its kind. */
import type { Db } from '../../context.js';

/** The tables whose ids an import keeps. */
export type ImportedTable = 'organizations' | 'members' | 'sso_connections';

/**
 * The project that holds a row with this id, or null when no project does. Ids are unique across
 * projects, so an id taken elsewhere cannot be kept here.
 *
 * @example
 * const owner = await projectHolding(db, 'members', 'member-test-…'); // 'project-test-…' or null
 */
export async function projectHolding(
  db: Db,
  table: ImportedTable,
  id: string,
): Promise<string | null> {
  const row = await db
    .selectFrom(table)
    .select('project_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.project_id ?? null;
}
