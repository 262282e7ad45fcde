// The store: DATABASE_URL parsing, migrations on a real SQLite file, and the shared rate counter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, parseDatabaseUrl } from './db.js';
import { migrateToLatest } from './migrations.js';
import { countHit } from './rate-limits.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseDatabaseUrl', () => {
  it('reads SQLite files, memory and PostgreSQL URLs', () => {
    expect(parseDatabaseUrl('sqlite:./data/gatehouse.db')).toEqual({
      kind: 'sqlite',
      file: resolve('data/gatehouse.db'),
    });
    expect(parseDatabaseUrl('sqlite:/srv/g.db')).toEqual({ kind: 'sqlite', file: '/srv/g.db' });
    expect(parseDatabaseUrl('sqlite:///srv/g.db')).toEqual({ kind: 'sqlite', file: '/srv/g.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', file: null });
    expect(parseDatabaseUrl('postgres://u:p@h/db')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://u:p@h/db',
    });
    expect(parseDatabaseUrl('mysql://x')).toBeNull();
    expect(parseDatabaseUrl('sqlite:')).toBeNull();
    expect(() => openStore('mysql://x')).toThrow(TypeError);
    // The password of a URL is never repeated (DATABASE_URL is a secret setting).
    expect(() => openStore('mysql://root:hunter2@db/g')).toThrow(
      /^Unsupported DATABASE_URL: not sqlite:PATH, sqlite::memory: or postgres:\/\/… \(it starts with mysql:\)$/,
    );
    expect(() => openStore('sqlite:')).toThrow(/\(it starts with sqlite:\)$/);
  });
});

describe('SQLite store', () => {
  it('migrates once, in WAL mode, and counts rate-limit hits per fixed window', async () => {
    const store = openStore(`sqlite:${join(dir, 'nested', 'g.db')}`);
    try {
      const applied = await migrateToLatest(store.db);
      expect(applied.slice(0, 3)).toEqual([
        '0001_initial',
        '0002_passwords_and_mfa',
        '0003_password_lockouts',
      ]);
      expect(await migrateToLatest(store.db)).toEqual([]);
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const t0 = Date.UTC(2026, 0, 1, 0, 0, 0);
      const hits = [];
      for (let i = 0; i < 4; i += 1) hits.push(await countHit(store.db, 'k', 3, 60, t0 + i * 1000));
      expect(hits.map((h) => h.allowed)).toEqual([true, true, true, false]);
      expect(hits[3]?.retryAfter).toBe(57);
      expect((await countHit(store.db, 'other', 3, 60, t0)).allowed).toBe(true);
      expect((await countHit(store.db, 'k', 3, 60, t0 + 60_000)).allowed).toBe(true);
    } finally {
      await store.close();
    }
  });
});
