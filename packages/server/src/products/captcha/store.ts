/** The captcha product's store: one row of captcha settings per project. */
import type { Selectable } from 'kysely';
import type { Db } from '../../context.js';
import { preparedQuery } from '../../store/prepared.js';
import { readsUntilChanged } from '../../store/read-cache.js';
import type { CaptchaSettingsTable } from '../../store/schema.js';

/** How many projects' captcha settings are remembered at most. */
const PROJECTS_REMEMBERED = 1000;

/**
 * The projects' captcha settings, none included (a project without a row), remembered until
 * `captcha_settings` may have changed: on any instance, since its commits are announced apart
 * (migration `0029_captcha_change_notices`), and never forgotten by the other writes of a sign-in.
 */
const remembered = readsUntilChanged<{ row: Selectable<CaptchaSettingsTable> | undefined }>(
  PROJECTS_REMEMBERED,
  'captcha_settings',
);

/**
 * The project's captcha settings, if it has any: remembered, so frozen (docs/security.md,
 * "Captcha settings read what is stored now").
 */
export async function captchaRow(
  db: Db,
  projectId: string,
): Promise<Selectable<CaptchaSettingsTable> | undefined> {
  const found = await remembered(db, projectId, async () => {
    const [row] = await captchaRowOfProject(db, { projectId });
    return { row };
  });
  return found?.row;
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
