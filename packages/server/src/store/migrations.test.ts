// The migrations and the schema agree: every file under migrations/ is listed under its recorded
// name, in the order it runs, and a freshly migrated database (SQLite, or PostgreSQL with
// TEST_DATABASE_URL) has exactly the tables and columns schema.ts declares.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/database.js';
import { openStore, type Store } from './db.js';
import { migrateToLatest, pendingMigrations, PREVIOUS_RELEASE_MIGRATION } from './migrations.js';
import { MIGRATIONS } from './migrations/index.js';
import { TABLE_COLUMNS } from './schema.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migration files' base names, by the name each is recorded under (`0002-a-b.ts`: `0002_a_b`). */
function migrationFiles(): Map<string, string> {
  const files = readdirSync(join(import.meta.dirname, 'migrations')).filter((f) =>
    /^\d{4}-[a-z0-9-]+\.ts$/.test(f),
  );
  const bases = files.map((f) => f.slice(0, -'.ts'.length));
  return new Map(bases.map((base) => [base.replaceAll('-', '_'), base]));
}

/** Each table's columns in the database, written as schema.ts writes them ('text not null'). */
async function actualColumns(store: Store): Promise<Record<string, Record<string, string>>> {
  const rows =
    store.location.kind === 'sqlite'
      ? // SQLite lets a primary key other than INTEGER hold NULL (a legacy quirk); the migrations
        // mean every primary key to be not null, as PostgreSQL makes it, so pk counts as not null.
        (
          await sql<{ table: string; column: string; type: string; not_null: number }>`
            SELECT m.name AS "table", p.name AS "column", p.type AS "type",
                   (p."notnull" OR p.pk > 0) AS not_null
            FROM sqlite_master m JOIN pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
          `.execute(store.db)
        ).rows
      : (
          await sql<{ table: string; column: string; type: string; not_null: boolean }>`
            SELECT table_name AS "table", column_name AS "column", data_type AS "type",
                   is_nullable = 'NO' AS not_null
            FROM information_schema.columns WHERE table_schema = current_schema()
          `.execute(store.db)
        ).rows;
  const tables: Record<string, Record<string, string>> = {};
  for (const row of rows) {
    // The migrator's own bookkeeping is not part of the schema.
    if (row.table.startsWith('kysely_migration')) continue;
    const type = row.type.toLowerCase();
    (tables[row.table] ??= {})[row.column] = row.not_null ? `${type} not null` : type;
  }
  return tables;
}

describe('the migration index', () => {
  it('lists every file of migrations/ under its recorded name, in the order they sort', async () => {
    const files = migrationFiles();
    const names = Object.keys(MIGRATIONS);
    expect(names).toEqual([...files.keys()]);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe('0001_initial');
    expect(names).toContain(PREVIOUS_RELEASE_MIGRATION);
    for (const [name, base] of files) {
      // The file itself, found at run time, is the module the index lists under that name.
      const path = join(import.meta.dirname, 'migrations', `${base}.ts`);
      const module: unknown = await import(path);
      // Compared as objects: their `up` functions must be the very same.
      expect(MIGRATIONS[name], name).toEqual(module);
    }
  });
});

describe('a freshly migrated database', () => {
  it('has exactly the tables and columns schema.ts declares', async () => {
    const database = await testDatabase(dir);
    const store = openStore(database.url);
    try {
      const schema = await store.migrationSchema();
      expect(await migrateToLatest(store.db, schema)).toEqual(Object.keys(MIGRATIONS));
      expect(await pendingMigrations(store.db, schema)).toEqual([]);
      expect(await actualColumns(store)).toEqual(TABLE_COLUMNS);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
