// The management commands refuse a database with migrations not applied, naming `gatehouse
// migrate`, and touch nothing; `migrate` applies them and `serve` (the server) still migrates as it
// starts. On temporary SQLite databases: one never migrated, one at the previous release's schema.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { createServer } from '../http/app.js';
import { openStore } from '../store/db.js';
import { migrateTo, pendingMigrations, PREVIOUS_RELEASE_MIGRATION } from '../store/migrations.js';
import { cliOnTempDatabase } from '../test/cli.js';

const REFUSAL = 'error: the database needs migrations: run "gatehouse migrate" first';
const serverKey = randomBytes(32).toString('hex');

async function pendingIn(databaseUrl: string): Promise<string[]> {
  const store = openStore(databaseUrl);
  try {
    return await pendingMigrations(store.db, await store.migrationSchema());
  } finally {
    await store.close();
  }
}

async function migrateToPreviousRelease(databaseUrl: string): Promise<void> {
  const store = openStore(databaseUrl);
  try {
    await migrateTo(store.db, PREVIOUS_RELEASE_MIGRATION, await store.migrationSchema());
  } finally {
    await store.close();
  }
}

/** A command of each kind: project, organization, member, settings, keys, SSO, sessions. */
const MANAGEMENT_COMMANDS: string[][] = [
  ['project', 'create', '--name', 'Too early'],
  ['project', 'show', '--project', 'project-test-x'],
  ['project', 'update', '--project', 'project-test-x', '--display-watermark', 'false'],
  ['org', 'create', '--project', 'project-test-x', '--name', 'Acme', '--slug', 'acme'],
  ['member', 'create', '--project', 'project-test-x', '--org', 'acme', '--email', 'a@acme.test'],
  ['session', 'revoke', '--project', 'project-test-x', '--member', 'member-test-x'],
  ['rbac', 'show', '--project', 'project-test-x'],
  ['sso', 'list', '--project', 'project-test-x', '--org', 'acme'],
  ['oauth', 'show', '--project', 'project-test-x'],
  ['captcha', 'show', '--project', 'project-test-x'],
  ['secret', 'list', '--project', 'project-test-x'],
  ['keys', 'rotate'],
  ['keys', 'rotate-server-key', '--from', serverKey, '--to', randomBytes(32).toString('hex')],
];

describe('a database never migrated', () => {
  const { databaseUrl, cli } = cliOnTempDatabase('gatehouse-cli-unmigrated-', { fresh: true });

  it('is refused by project create, which creates nothing, not even the key file', async () => {
    const res = await cli('project', 'create', '--name', 'Too early');
    expect(res.code).toBe(1);
    expect(res.stderr.startsWith(REFUSAL)).toBe(true);
    expect(res.stderr).toContain('0001_initial');
    expect(res.stdout).toBe('');
    const file = databaseUrl.slice('sqlite:'.length);
    expect(existsSync(`${file}.key`)).toBe(false);
    expect(await pendingIn(databaseUrl)).toContain('0001_initial');

    expect((await cli('migrate')).code).toBe(0);
    const created = await cli('project', 'create', '--name', 'In time');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^project_id:\s+project-test-/m);
  });
});

describe(`a database at ${PREVIOUS_RELEASE_MIGRATION}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-old-'));
  const databaseUrl = `sqlite:${join(dir, 'old.db')}`;
  const cli = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: { DATABASE_URL: databaseUrl, GATEHOUSE_SERVER_KEY: serverKey },
    });
    return { code, stdout, stderr };
  };
  let pending: string[] = [];

  beforeAll(async () => {
    await migrateToPreviousRelease(databaseUrl);
    pending = await pendingIn(databaseUrl);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(MANAGEMENT_COMMANDS.map((argv) => [argv.slice(0, 2).join(' '), argv] as const))(
    '%s refuses it, exits 1 and applies nothing',
    async (_name, argv) => {
      expect(pending.length).toBeGreaterThan(0);
      const res = await cli(...argv);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`${REFUSAL} (not applied: ${pending.join(', ')})\n`);
      expect(res.stdout).toBe('');
      expect(await pendingIn(databaseUrl)).toEqual(pending);
    },
  );

  it('still shows help and usage mistakes without opening it', async () => {
    expect((await cli('project', 'create', '--help')).code).toBe(0);
    expect((await cli('project', 'create')).code).toBe(2);
  });

  it('is brought up to date by gatehouse migrate, after which the commands run', async () => {
    const migrated = await cli('migrate');
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toBe(`Applied migrations: ${pending.join(', ')}\n`);
    expect(await pendingIn(databaseUrl)).toEqual([]);
    const created = await cli('project', 'create', '--name', 'After the upgrade');
    expect(created.code).toBe(0);
  });
});

describe(`the server on a database at ${PREVIOUS_RELEASE_MIGRATION}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-serve-old-'));
  const databaseUrl = `sqlite:${join(dir, 'old.db')}`;

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates it as it starts, as gatehouse serve always has', async () => {
    await migrateToPreviousRelease(databaseUrl);
    expect(await pendingIn(databaseUrl)).not.toEqual([]);
    const app = await createServer({ databaseUrl, serverKey, devInbox: true, logger: false });
    try {
      expect(await pendingIn(databaseUrl)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
