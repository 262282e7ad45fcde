/** The migrator: brings a database to a schema of `migrations/` and says what is left to apply. */
import { Migrator, type Kysely } from 'kysely';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * The newest migration of the previous release. Upgrades are tested from its schema, with data
 * written the way that release wrote it (store/upgrade.test.ts).
 */
export const PREVIOUS_RELEASE_MIGRATION = '0008_oauth';

/**
 * The one Migrator every entry point uses. Its bookkeeping tables live in `migrationTableSchema`
 * (PostgreSQL's current schema, see `Store.migrationSchema`), or in the default place when none.
 */
function migrator(db: Kysely<Database>, migrationTableSchema: string | undefined): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/** Throws the error a migration run ended with, if any. */
function throwIfFailed(error: unknown): void {
  if (error === undefined) return;
  throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
}

/**
 * Brings the database to the schema of one migration, for upgrade tests. Never used to go back:
 * migrations only add.
 *
 * @example
 * await migrateTo(db, PREVIOUS_RELEASE_MIGRATION);
 */
export async function migrateTo(
  db: Kysely<Database>,
  name: string,
  migrationTableSchema?: string,
): Promise<void> {
  const { error } = await migrator(db, migrationTableSchema).migrateTo(name);
  throwIfFailed(error);
}

/**
 * Brings the database up to the latest schema and returns the names of the migrations it applied.
 * Safe to run on every start and from several instances: Kysely's migrator takes a lock and skips
 * what is already applied.
 *
 * @example
 * await migrateToLatest(store.db, await store.migrationSchema());
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  migrationTableSchema?: string,
): Promise<string[]> {
  const { error, results } = await migrator(db, migrationTableSchema).migrateToLatest();
  throwIfFailed(error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations this server knows that the database has not applied: empty when the schema is
 * current. For readiness checks; it applies nothing.
 *
 * @example
 * await pendingMigrations(store.db, await store.migrationSchema()); // []
 */
export async function pendingMigrations(
  db: Kysely<Database>,
  migrationTableSchema?: string,
): Promise<string[]> {
  const migrations = await migrator(db, migrationTableSchema).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * What opening a database with migrations not applied throws where nothing may migrate it: the
 * management commands, which leave schema changes to `gatehouse migrate` (docs/deploy.md,
 * "Upgrading") rather than applying them as a side effect of, say, creating a project.
 */
export class MigrationsPendingError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(
      `the database needs migrations: run "gatehouse migrate" first ` +
        `(not applied: ${pending.join(', ')})`,
    );
    this.name = 'MigrationsPendingError';
  }
}

/**
 * Throws {@link MigrationsPendingError} unless every migration this server knows is applied;
 * applies nothing.
 *
 * @example
 * await refusePendingMigrations(store.db, await store.migrationSchema());
 */
export async function refusePendingMigrations(
  db: Kysely<Database>,
  migrationTableSchema?: string,
): Promise<void> {
  const pending = await pendingMigrations(db, migrationTableSchema);
  if (pending.length > 0) throw new MigrationsPendingError(pending);
}
