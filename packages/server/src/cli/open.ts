/** What the management commands share: opening the database from the environment, finding a project or an organization. */
import { configFromEnv, resolveConfig } from '../config.js';
import type { Logger } from '../context.js';
import type { Admin } from '../products/management/admin.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { UsageError, type CliIo } from './command.js';

/** Warnings and errors to stderr as one line each; progress stays quiet. */
function stderrLogger(io: CliIo): Logger {
  const write = (level: string) => (obj: object, msg?: string) => {
    const details = Object.keys(obj).length > 0 ? ` ${JSON.stringify(obj)}` : '';
    io.stderr(`${level}: ${msg ?? ''}${details}\n`);
  };
  return { info: () => undefined, warn: write('warning'), error: write('error') };
}

/**
 * Opens the database the environment names, runs `work` on it, and closes it. A database with
 * migrations not applied is refused (`error: the database needs migrations: run "gatehouse
 * migrate" first`, exit 1) before anything is read or written, unless `migrate` asks to apply
 * them: only `gatehouse migrate` does (and `serve`, through the server).
 *
 * @example
 * await withRuntime(io, async ({ admin }) => { await admin.createProject(input); });
 */
export async function withRuntime<T>(
  io: CliIo,
  work: (runtime: Runtime) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const runtime = await openRuntime(resolveConfig(configFromEnv(io.env)), stderrLogger(io), {
    migrate: options.migrate ?? false,
  });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

/**
 * Opens the database like {@link withRuntime} and runs `work` with the admin interface, once the
 * project of that id is known to exist; an unknown id is a usage error.
 *
 * @example
 * await withProject(io, values.project, (admin) => admin.captchaSettings(values.project));
 */
export async function withProject<T>(
  io: CliIo,
  projectId: string,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  return withRuntime(io, async ({ admin }) => {
    if (!(await admin.getProject(projectId))) throw new UsageError(`No project ${projectId}`);
    return work(admin);
  });
}

/**
 * An organization id, or a slug looked up in the project; an unknown slug is a usage error.
 *
 * @example
 * const orgId = await organizationIdOf(admin, projectId, 'acme');
 */
export async function organizationIdOf(
  admin: Admin,
  projectId: string,
  ref: string,
): Promise<string> {
  if (ref.startsWith('organization-')) return ref;
  const org = await admin.getOrganizationBySlug(projectId, ref);
  if (!org) throw new UsageError(`No organization with slug ${ref} in project ${projectId}`);
  return org.organization_id;
}
