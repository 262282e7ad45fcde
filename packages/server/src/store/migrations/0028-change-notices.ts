// Change notices on PostgreSQL: every statement that writes to a table a session check reads
// notifies `gatehouse_changes` when its transaction commits, whichever instance or tool ran it,
// so every instance forgets the session checks it remembers (store/change-notices.ts). SQLite
// needs none: `PRAGMA data_version` sees every commit to the file.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The tables a session check's answer is read from (products/sessions/store.ts: the session, its
 * member, the member's roles and linked identities, the organization) and the role policies.
 */
const WATCHED = [
  'sessions',
  'members',
  'member_roles',
  'member_federated_identities',
  'organizations',
  'rbac_policies',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // One notice per statement, not per row; PostgreSQL sends a transaction's identical notices
  // once. It names the schema: deployments in other schemas of the database ignore it.
  await sql`
    CREATE FUNCTION gatehouse_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('gatehouse_changes', TG_TABLE_SCHEMA);
      RETURN NULL;
    END
    $$`.execute(db);
  for (const table of WATCHED) {
    await sql`
      CREATE TRIGGER gatehouse_notify_change
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_notify_change()`.execute(db);
  }
}
