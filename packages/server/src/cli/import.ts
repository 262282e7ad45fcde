/**
 * `gatehouse import`: one command to move a project from the hosted provider (or another
 * Gatehouse) into a Gatehouse project, keeping every id (docs/migrate.md, "One command to
 * migrate").
 */
import { readFile } from 'node:fs/promises';
import { defineCommand, option, UsageError, type Parser } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { parseHashFile, type HashFile } from './import-hashes.js';
import { runImport } from './import-run.js';
import { openSource, sourceUrl } from './import-source.js';
import { loadState } from './import-state.js';
import { withProject } from './open.js';

/** The environment variable that may carry the source's secret instead of `--secret`. */
const SECRET_ENV = 'GATEHOUSE_IMPORT_SECRET';

const between =
  (min: number, max: number): Parser<number> =>
  (raw, flag) => {
    const value = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) {
      throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
    }
    return value;
  };

async function readHashes(path: string): Promise<HashFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`Cannot read ${path}`);
  }
  return parseHashFile(text);
}

/** Reads the source project and writes it into the target, resumably. */
export const importProject = defineCommand({
  name: ['import'],
  summary: 'Import organizations, members, SSO and roles from the provider',
  usage:
    '--from URL --project-id ID [--secret S] --into ID [--password-hashes FILE] ' +
    '[--page-size N] [--concurrency N] [--timeout SECONDS] [--state FILE]',
  description:
    'Reads a project through the hosted provider’s backend API (HTTP Basic project_id:secret; ' +
    'https, or http on a loopback host): its RBAC policy, organizations, their members and SSO ' +
    'connections, and writes them into the Gatehouse project --into with the same ids. Objects ' +
    'already there by id are brought up to date, so a second run adds nothing. Progress is ' +
    'checkpointed in --state: after an interruption the same command continues. With ' +
    '--password-hashes, members get their passwords from the provider’s export (JSON lines or ' +
    'CSV: email, organization, hash, hash_type, config) as passwords/migrate stores them; a ' +
    'member who already has a password here keeps it. Ends with a summary of what was imported ' +
    'and what was skipped, and why. The secret may come from ' +
    `${SECRET_ENV} instead of --secret, out of the process list.`,
  options: {
    from: option('URL', 'The source’s API base URL (https://api.stytch.com)', {
      parse: sourceUrl,
    }).required(),
    'project-id': option('ID', 'The source project').required(),
    secret: option('S', `The source project’s secret (or set ${SECRET_ENV})`),
    into: option('ID', 'The Gatehouse project to write into').required(),
    'password-hashes': option('FILE', 'The provider’s export of password hashes'),
    'page-size': option('N', 'Organizations and members per source page (default 100)', {
      parse: between(1, 1000),
    }),
    concurrency: option('N', 'Organizations read at once (default 4)', {
      parse: between(1, 16),
    }),
    timeout: option('SECONDS', 'Each source call’s timeout (default 30)', {
      parse: between(1, 600),
    }),
    state: option('FILE', 'The checkpoint file (default gatehouse-import-ID.json, ID of --into)'),
  },
  environment: [
    ...DATABASE_SETTINGS,
    {
      name: SECRET_ENV,
      description: 'The source project’s secret, when --secret is not given. Secret.',
      fallback: 'none: --secret is then required',
    },
  ],
  async run(values, io) {
    const secret = values.secret ?? io.env[SECRET_ENV];
    if (!secret) throw new UsageError(`--secret (or ${SECRET_ENV}) is required`);
    const hashes =
      values['password-hashes'] === undefined ? null : await readHashes(values['password-hashes']);
    const statePath = values.state ?? `gatehouse-import-${values.into}.json`;
    const sourceName = `${values.from} ${values['project-id']}`;
    const state = await loadState(statePath, sourceName, values.into);
    await withProject(io, values.into, async (admin) => {
      if (state.organizationsDone.length > 0 || state.policyDone) {
        io.stdout(
          `Continuing an interrupted import: ${state.organizationsDone.length} organizations ` +
            `done (${statePath}).\n`,
        );
      }
      // Ends the calls still reading ahead when the run stops, so none outlives the command.
      const stop = new AbortController();
      const source = openSource({
        url: values.from,
        projectId: values['project-id'],
        secret,
        timeoutMs: (values.timeout ?? 30) * 1000,
        stop: stop.signal,
      });
      try {
        const report = await runImport({
          admin,
          projectId: values.into,
          source,
          pageSize: values['page-size'] ?? 100,
          concurrency: values.concurrency ?? 4,
          hashes,
          state,
          statePath,
          print: (line) => io.stdout(line),
        });
        io.stdout(report.summary());
      } catch (error) {
        io.stderr(
          `The import stopped; what is done is kept (${statePath}). Run the same command ` +
            'again to continue.\n',
        );
        throw error;
      } finally {
        stop.abort();
      }
    });
  },
});
