/** The projects product's store: projects and their secret keys. */
import type { Insertable } from 'kysely';
import type { Db } from '../../context.js';
import type { ProjectsTable, SecretsTable } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';

/** Inserts a project with its first secret key, in one transaction. */
export async function insertProject(
  db: Db,
  project: Insertable<ProjectsTable>,
  secret: SecretsTable,
): Promise<void> {
  await transaction(db, async (trx) => {
    await trx.insertInto('projects').values(project).execute();
    await trx.insertInto('secrets').values(secret).execute();
  });
}

/** Writes a project's changed columns. */
export async function updateProjectRow(
  db: Db,
  projectId: string,
  values: Partial<ProjectsTable>,
): Promise<void> {
  await db.updateTable('projects').set(values).where('id', '=', projectId).execute();
}

/** A project by id or by public token. */
export async function projectRow(
  db: Db,
  by: 'id' | 'public_token',
  value: string,
): Promise<ProjectsTable | undefined> {
  return db.selectFrom('projects').selectAll().where(by, '=', value).executeTakeFirst();
}

/** Every project's row, oldest first. */
export async function allProjectRows(db: Db): Promise<ProjectsTable[]> {
  return db.selectFrom('projects').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** The hashes of a project's secret keys. */
export async function secretHashesOf(db: Db, projectId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('secrets')
    .select('secret_hash')
    .where('project_id', '=', projectId)
    .execute();
  return rows.map((r) => r.secret_hash);
}

/** Whether any project is in the live environment (its members' links must never be shown). */
export async function hasLiveProject(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('environment', '=', 'live')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every origin any project authorizes, once each (the pages their apps may frame). */
export async function allAuthorizedOrigins(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('projects').select('authorized_origins').execute();
  return [...new Set(rows.flatMap((r) => JSON.parse(r.authorized_origins) as string[]))];
}

/** Every project's environment and authorized origins (what CORS preflights are answered by). */
export async function originsByEnvironment(
  db: Db,
): Promise<{ environment: ProjectsTable['environment']; origins: string[] }[]> {
  const rows = await db
    .selectFrom('projects')
    .select(['environment', 'authorized_origins'])
    .execute();
  return rows.map((r) => ({
    environment: r.environment,
    origins: JSON.parse(r.authorized_origins) as string[],
  }));
}
