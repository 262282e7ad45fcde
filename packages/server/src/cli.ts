#!/usr/bin/env node
/** The `gatehouse` command's entry: runs the command table in cli/ on this process's arguments. */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliIo } from './cli/command.js';
import { runCli } from './cli/run.js';

export type { CliIo } from './cli/command.js';
export { runCli } from './cli/run.js';

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** Runs the command line of this process (`bin/gatehouse.cjs` calls it). */
export async function main(): Promise<void> {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
  process.exitCode = await runCli(process.argv.slice(2), io);
}

if (isMain()) await main();
