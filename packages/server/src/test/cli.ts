/** Runs the CLI in-process against a fresh temporary SQLite database, capturing its output. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runCli, type CliIo } from '../cli.js';
import type { Harness } from './harness.js';

/** What one CLI call printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Creates a temporary database for the calling test file (removed after it) and returns a function
 * that runs `gatehouse …` against it. The database is migrated (`gatehouse migrate`, quietly)
 * before the first command runs, as an operator does before the management commands, which
 * refuse a database with migrations pending; `fresh: true` leaves that to the test.
 */
export function cliOnTempDatabase(
  prefix: string,
  options: { fresh?: boolean } = {},
): {
  databaseUrl: string;
  cli: (...argv: string[]) => Promise<CliRun>;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const databaseUrl = `sqlite:${join(dir, 'cli.db')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (argv: readonly string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: { DATABASE_URL: databaseUrl },
    };
    const code = await runCli(argv, io);
    return { code, stdout, stderr };
  };
  let migrated: Promise<void> | null = null;
  const migrateOnce = () =>
    (migrated ??= run(['migrate']).then((res) => {
      if (res.code !== 0) throw new Error(`gatehouse migrate failed: ${res.stderr}`);
    }));
  const cli = async (...argv: string[]): Promise<CliRun> => {
    if (!options.fresh) await migrateOnce();
    return run(argv);
  };
  return { databaseUrl, cli };
}

/**
 * Runs `gatehouse …` in-process on the harness's database, with its server key, capturing the
 * output.
 *
 * @example
 * const run = await cliOnHarness(h, 'member', 'invite', '--org', 'acme', '--email', 'a@b.test');
 */
export async function cliOnHarness(h: Harness, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { DATABASE_URL: h.databaseUrl, GATEHOUSE_SERVER_KEY: h.serverKey },
  });
  return { code, stdout, stderr };
}
