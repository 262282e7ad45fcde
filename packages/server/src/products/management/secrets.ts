/**
 * A project's secret keys: adding one, listing them, deleting one. Two keys let a backend hand
 * over from a leaked or old key without downtime: add a key, deploy it, delete the old one.
 */
import type { ProjectSecretSummary } from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../../context.js';
import { hashToken, newId, newToken, safeEqual } from '../../crypto/random.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import { deleteSecretUnlessLast, insertSecret, lockProject, secretRows } from './store.js';

/** The most secret keys a project holds at once: enough for a handover, few to audit. */
export const MAX_SECRETS = 5;

/** No secret key of the project has this id (another project's included). */
export const secretNotFound = (): Failure =>
  fail('secret_not_found', 'The project has no secret key with this id.');

/** Deleting the key would leave the project with none. */
const lastSecret = (): Failure =>
  fail(
    'invalid_request',
    'This is the project’s last secret key: add another one before deleting it.',
  );

/** A new secret key, shown once. */
export interface CreatedSecret {
  secret_id: string;
  created_at: string;
  secret: string;
}

/**
 * The id of the project's secret key `secret`, or null; compares against every stored hash in
 * constant time, as authentication does.
 *
 * @example
 * const secretId = await secretIdOf(ctx.db, project.id, credential.secret);
 */
export async function secretIdOf(
  db: Db,
  projectId: string,
  secret: string,
): Promise<string | null> {
  const hash = hashToken(secret);
  let found: string | null = null;
  for (const row of await secretRows(db, projectId)) {
    if (safeEqual(hash, row.secret_hash)) found = row.id;
  }
  return found;
}

/**
 * The project's secret keys, oldest first; `callerSecretId` marks the one a call was
 * authenticated with.
 */
export async function listSecrets(
  db: Db,
  project: Project,
  callerSecretId: string | null,
): Promise<ProjectSecretSummary[]> {
  return (await secretRows(db, project.id)).map((row) => ({
    secret_id: row.id,
    created_at: row.created_at,
    used_by_this_request: row.id === callerSecretId,
  }));
}

/**
 * Adds a secret key to the project; refused once it holds {@link MAX_SECRETS}. Only the key's
 * SHA-256 is stored: the key itself is in the answer and nowhere else.
 */
export async function createSecret(
  ctx: Context,
  project: Project,
): Promise<CreatedSecret | Failure> {
  const secret = `secret-${project.environment}-${newToken()}`;
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    await lockProject(trx, project.id, now);
    const count = (await secretRows(trx, project.id)).length;
    if (count >= MAX_SECRETS) {
      return fail(
        'invalid_request',
        `A project holds at most ${MAX_SECRETS} secret keys: delete one first.`,
      );
    }
    const row = {
      id: newId('secret', project.environment),
      project_id: project.id,
      secret_hash: hashToken(secret),
      created_at: isoAt(now),
    };
    await insertSecret(trx, row);
    return { secret_id: row.id, created_at: row.created_at, secret };
  });
}

/**
 * Deletes one of the project's secret keys. The key stops authenticating at once on every
 * instance: keys are checked against the database on each call, never cached. Refused for the
 * project's last key (the project would be unreachable) and for `callerSecretId`, the key the
 * call is authenticated with (delete a key with another one, so a leaked key cannot lock its
 * owner out). Two concurrent deletes of a project's last two keys leave one: the project's row
 * is locked while counting, and the delete itself only happens while another key remains.
 */
export async function deleteSecret(
  ctx: Context,
  project: Project,
  secretId: string,
  callerSecretId: string | null,
): Promise<{ secret_id: string } | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    await lockProject(trx, project.id, ctx.now());
    const rows = await secretRows(trx, project.id);
    if (!rows.some((row) => row.id === secretId)) return secretNotFound();
    if (secretId === callerSecretId) {
      return fail(
        'invalid_request',
        'A call cannot delete the secret key it is authenticated with: use another key.',
      );
    }
    if (rows.length <= 1) return lastSecret();
    // The condition keeps one key even if the lock did not hold.
    const deleted = await deleteSecretUnlessLast(trx, project.id, secretId);
    return deleted ? { secret_id: secretId } : lastSecret();
  });
}
