/**
 * The checkpoint of `gatehouse import`: a small JSON file saying which parts of which source and
 * target are done, so a run after an interruption continues where the last one stopped. A run
 * that finishes marks it complete, and the next run starts over (upserting by id changes nothing
 * that is already so). It holds ids only, never the secret.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { UsageError } from './command.js';

/** What the checkpoint remembers. */
export interface ImportState {
  /** The source URL and project id, and the target project: another pair starts over. */
  source: string;
  target: string;
  complete: boolean;
  policyDone: boolean;
  /** Organizations whose members and connections are all written. */
  organizationsDone: string[];
}

const fresh = (source: string, target: string): ImportState => ({
  source,
  target,
  complete: false,
  policyDone: false,
  organizationsDone: [],
});

/**
 * The state in `path` when it is an unfinished import of the same source into the same target;
 * otherwise (no file, a finished run, another pair) a fresh state. A file that is not a checkpoint
 * is a usage error: it is never overwritten.
 *
 * @example
 * const state = await loadState('gatehouse-import.json', 'https://api.stytch.com project-live-…', 'project-live-…');
 */
export async function loadState(
  path: string,
  source: string,
  target: string,
): Promise<ImportState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fresh(source, target);
    throw new UsageError(`Cannot read the state file ${path}`);
  }
  let state: ImportState;
  try {
    state = JSON.parse(text) as ImportState;
  } catch {
    throw new UsageError(`${path} is not a state file of gatehouse import`);
  }
  if (typeof state !== 'object' || !Array.isArray(state.organizationsDone)) {
    throw new UsageError(`${path} is not a state file of gatehouse import`);
  }
  if (state.complete || state.source !== source || state.target !== target) {
    return fresh(source, target);
  }
  return state;
}

/**
 * Writes the state whole, through a temporary file renamed over it: an interruption leaves the
 * old state or the new one, never half of one.
 */
export async function saveState(path: string, state: ImportState): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}
