/** The captcha product's store: one row of captcha settings per project. */
import type { Selectable } from 'kysely';
import type { Db } from '../../context.js';
import { preparedQuery } from '../../store/prepared.js';
import type { CaptchaSettingsTable } from '../../store/schema.js';

/** The project's captcha settings, if it has any. */
export async function captchaRow(
  db: Db,
  projectId: string,
): Promise<Selectable<CaptchaSettingsTable> | undefined> {
  const [row] = await captchaRowOfProject(db, { projectId });
  return row;
}

// Every call that may need a captcha reads it (password sign-ins, e-mail sends): built once.
const captchaRowOfProject = preparedQuery((db, p: { projectId: string }) =>
  db.selectFrom('captcha_settings').selectAll().where('project_id', '=', p.projectId),
);

/** Writes the project's captcha settings in one statement, so concurrent writes cannot clash. */
export async function saveCaptchaRow(db: Db, row: CaptchaSettingsTable): Promise<void> {
  const { project_id: _, ...columns } = row;
  await db
    .insertInto('captcha_settings')
    .values(row)
    .onConflict((oc) => oc.column('project_id').doUpdateSet(columns))
    .execute();
}
