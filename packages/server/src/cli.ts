#!/usr/bin/env node
/** The `gatehouse` command: serve, migrate, and create projects, organizations and members. */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configFromEnv, resolveConfig } from './config.js';
import type { Logger } from './context.js';
import { createServer } from './http/app.js';
import { openRuntime, type Runtime } from './runtime.js';

/** Where the CLI writes, and the environment it reads; injectable for tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

const USAGE = `Usage: gatehouse <command> [options]

Commands:
  serve [--port N] [--host H]   Start the server (migrates first)
  migrate                       Bring the database schema up to date
  project create --name N …     Create a project and print its credentials
  org create --project ID …     Create an organization
  member create --project ID …  Create a member of an organization

Run "gatehouse <command> --help" for a command's options.
The database is DATABASE_URL (default sqlite:./data/gatehouse.db).
`;

const HELP: Record<string, string> = {
  serve: `Usage: gatehouse serve [--port N] [--host H]

Starts the server on PORT (default 3000) and HOST (default 0.0.0.0). Reads DATABASE_URL,
PUBLIC_URL, SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS, EMAIL_FROM and
GATEHOUSE_SERVER_KEY from the environment.
`,
  migrate: `Usage: gatehouse migrate

Applies pending schema migrations to DATABASE_URL. Never drops data.
`,
  'project create': `Usage: gatehouse project create --name N [--live] [--origin URL]… [--redirect-url URL]… [--allow-org-creation]

Creates a project (test environment unless --live) and prints its id, public token and secret
key. The secret is shown only once. Each --redirect-url is allowed for login, signup and
discovery; the first one is the default.
`,
  'org create': `Usage: gatehouse org create --project ID --name N --slug S [--jit-domain D]…

Creates an organization. Each --jit-domain lets addresses at that domain join by e-mail.
`,
  'member create': `Usage: gatehouse member create --project ID --org ORG_ID_OR_SLUG --email E [--name N]

Creates an active member of an organization.
`,
};

type Options = NonNullable<ParseArgsConfig['options']>;
const help: Options = { help: { type: 'boolean', short: 'h' } };

const OPTIONS: Record<string, Options> = {
  serve: { ...help, port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  migrate: help,
  'project create': {
    ...help,
    name: { type: 'string' },
    live: { type: 'boolean' },
    origin: { type: 'string', multiple: true },
    'redirect-url': { type: 'string', multiple: true },
    'allow-org-creation': { type: 'boolean' },
  },
  'org create': {
    ...help,
    project: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string' },
    'jit-domain': { type: 'string', multiple: true },
  },
  'member create': {
    ...help,
    project: { type: 'string' },
    org: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
  },
};

/** A usage mistake: reported with the command's help and exit code 2. */
class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function stringList(values: Record<string, unknown>, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function stderrLogger(io: CliIo): Logger {
  const write = (level: string) => (obj: object, msg?: string) => {
    const details = Object.keys(obj).length > 0 ? ` ${JSON.stringify(obj)}` : '';
    io.stderr(`${level}: ${msg ?? ''}${details}\n`);
  };
  return { info: () => undefined, warn: write('warning'), error: write('error') };
}

async function withRuntime<T>(io: CliIo, run: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(resolveConfig(configFromEnv(io.env)), stderrLogger(io));
  try {
    return await run(runtime);
  } finally {
    await runtime.close();
  }
}

async function serve(values: Record<string, unknown>, io: CliIo): Promise<number> {
  const port = Number(values.port ?? io.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a port number');
  const app = await createServer({ ...configFromEnv(io.env), logger: true });
  const host = typeof values.host === 'string' ? values.host : '0.0.0.0';
  const address = await app.listen({ port, host });
  io.stdout(`Gatehouse listening on ${address}\n`);
  const stop = () => {
    void app.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}

async function run(command: string, values: Record<string, unknown>, io: CliIo): Promise<number> {
  switch (command) {
    case 'serve':
      return serve(values, io);
    case 'migrate':
      return withRuntime(io, async (runtime) => {
        io.stdout(
          runtime.migrations.length > 0
            ? `Applied migrations: ${runtime.migrations.join(', ')}\n`
            : 'The database is up to date.\n',
        );
        return 0;
      });
    case 'project create': {
      const name = required(values, 'name');
      const redirects = stringList(values, 'redirect-url');
      return withRuntime(io, async ({ admin }) => {
        const created = await admin.createProject({
          name,
          environment: values.live ? 'live' : 'test',
          authorizedOrigins: stringList(values, 'origin'),
          redirectUrls: { login: redirects, signup: redirects, discovery: redirects },
          createOrganizationEnabled: values['allow-org-creation'] === true,
        });
        io.stdout(
          `Project created. The secret is shown only once: store it now.\n` +
            `project_id:   ${created.project_id}\npublic_token: ${created.public_token}\n` +
            `secret_id:    ${created.secret_id}\nsecret:       ${created.secret}\n`,
        );
        return 0;
      });
    }
    case 'org create': {
      const projectId = required(values, 'project');
      const name = required(values, 'name');
      const slug = required(values, 'slug');
      return withRuntime(io, async ({ admin }) => {
        const org = await admin.createOrganization(projectId, {
          organization_name: name,
          organization_slug: slug,
          email_allowed_domains: stringList(values, 'jit-domain'),
        });
        io.stdout(
          `Organization created.\norganization_id: ${org.organization_id}\nslug:            ${org.organization_slug}\n`,
        );
        return 0;
      });
    }
    case 'member create': {
      const projectId = required(values, 'project');
      const orgRef = required(values, 'org');
      const email = required(values, 'email');
      return withRuntime(io, async ({ admin }) => {
        const org = orgRef.startsWith('organization-')
          ? { organization_id: orgRef }
          : await admin.getOrganizationBySlug(projectId, orgRef);
        if (!org)
          throw new UsageError(`No organization with slug ${orgRef} in project ${projectId}`);
        const member = await admin.createMember(projectId, org.organization_id, {
          email_address: email,
          ...(typeof values.name === 'string' ? { name: values.name } : {}),
        });
        io.stdout(
          `Member created.\nmember_id: ${member.member_id}\nemail:     ${member.email_address}\n`,
        );
        return 0;
      });
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

/**
 * Runs the CLI with the given arguments (without `node` and the script) and returns the exit
 * code: 0 success, 1 failure, 2 usage error.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { stdout, stderr, env: process.env });
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(USAGE);
    return first === undefined ? 2 : 0;
  }
  const command =
    first === 'serve' || first === 'migrate' ? first : `${first} ${second ?? ''}`.trim();
  const options = OPTIONS[command];
  if (!options) {
    io.stderr(`Unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  const rest = argv.slice(command.split(' ').length);
  try {
    const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
    if (values.help) {
      io.stdout(HELP[command] ?? USAGE);
      return 0;
    }
    return await run(command, values, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error instanceof TypeError &&
        'code' in error &&
        String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      io.stderr(`${error.message}\n\n${HELP[command] ?? USAGE}`);
      return 2;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
  process.exitCode = await runCli(process.argv.slice(2), io);
}
