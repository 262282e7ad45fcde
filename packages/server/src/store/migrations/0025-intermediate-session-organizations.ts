// The organizations an intermediate session's primary factor was proven in, when there are
// several: a discovery password that more than one membership of the address accepts counts as
// their own sign-in in each of them, and in no other organization.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('intermediate_sessions')
    .addColumn('factor_organization_ids', 'text')
    .execute();
}
