/** The oauth product's store: provider settings per project, and sign-ins sent to providers. */
import type { Selectable } from 'kysely';
import { isoAt, type Db } from '../../context.js';
import type { OAuthProvidersTable, OAuthRequestsTable } from '../../store/schema.js';

/** A project's settings for one provider, if it has any. */
export async function providerRow(
  db: Db,
  projectId: string,
  provider: string,
): Promise<Selectable<OAuthProvidersTable> | undefined> {
  return db
    .selectFrom('oauth_providers')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('provider', '=', provider)
    .executeTakeFirst();
}

/** Writes a project's settings for one provider. */
export async function saveProviderRow(db: Db, row: OAuthProvidersTable): Promise<void> {
  const { project_id, provider, ...columns } = row;
  const updated = await db
    .updateTable('oauth_providers')
    .set(columns)
    .where('project_id', '=', project_id)
    .where('provider', '=', provider)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) await db.insertInto('oauth_providers').values(row).execute();
}

export async function insertOAuthRequest(db: Db, row: OAuthRequestsTable): Promise<void> {
  await db.insertInto('oauth_requests').values(row).execute();
}

/**
 * Claims the live, unanswered request with this state hash for one provider: exactly one caller
 * gets it, however many race, and a used or expired state gets nothing.
 */
export async function claimOAuthRequest(
  db: Db,
  provider: string,
  stateHash: string,
  now: number,
): Promise<Selectable<OAuthRequestsTable> | undefined> {
  const row = await db
    .selectFrom('oauth_requests')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .where('provider', '=', provider)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoAt(now))
    .executeTakeFirst();
  if (!row) return undefined;
  const claimed = await db
    .updateTable('oauth_requests')
    .set({ used_at: isoAt(now) })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return claimed.numUpdatedRows === 1n ? row : undefined;
}
