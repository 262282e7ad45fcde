// Captcha settings announced apart on PostgreSQL: every statement that writes to
// `captcha_settings` notifies `gatehouse_changes` with the schema and the table's name when its
// transaction commits, so every instance forgets the captcha settings it remembers, and only
// them (store/change-notices.ts). Every sign-in reads them and writes elsewhere; a notice of
// 0028_change_notices would forget them at each sign-in. SQLite needs none.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // One notice per statement; instances older than this migration ignore its payload.
  await sql`
    CREATE FUNCTION gatehouse_notify_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('gatehouse_changes', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER gatehouse_notify_table_change
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON captcha_settings
    FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_notify_table_change()`.execute(db);
}
