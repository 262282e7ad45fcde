// The SQLite files hold every member's data: created readable by their owner only.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './db.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('openStore (SQLite)', () => {
  it('creates the database, its WAL and shared-memory files with mode 0600, its folder 0700', async () => {
    const file = join(dir, 'data', 'gatehouse.db');
    const store = openStore(`sqlite:${file}`);
    try {
      await sql`CREATE TABLE probe (id INTEGER)`.execute(store.db);
      await sql`INSERT INTO probe VALUES (1)`.execute(store.db);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(modeOf(path).toString(8), path).toBe('600');
      }
      expect(modeOf(join(dir, 'data')).toString(8)).toBe('700');
    } finally {
      await store.close();
    }
  });
});
