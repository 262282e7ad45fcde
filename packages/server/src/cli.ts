#!/usr/bin/env node
/** The `gatehouse` command: serve, migrate, create projects, organizations and members, and revoke sessions. */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configFromEnv, resolveConfig } from './config.js';
import type { Logger } from './context.js';
import { createServer } from './http/app.js';
import { MFA_METHODS, type MfaMethod } from '@gatehouse/protocol';
import type { Admin } from './products/projects/admin.js';
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
  org update --project ID …     Change an organization's MFA policy
  member create --project ID …  Create a member of an organization (optionally with a password)
  member update --project ID …  Change a member's MFA settings
  session revoke --project ID … End a session, or every session of a member

Run "gatehouse <command> --help" for a command's options.
The database is DATABASE_URL (default sqlite:./data/gatehouse.db).
`;

const HELP: Record<string, string> = {
  serve: `Usage: gatehouse serve [--port N] [--host H]

Starts the server on PORT (default 3000) and HOST (default 0.0.0.0). Reads DATABASE_URL,
PUBLIC_URL, SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS, EMAIL_FROM,
GATEHOUSE_SERVER_KEY and SESSION_MAX_LIFETIME_MINUTES (a session's absolute lifetime, default
43200: 30 days) from the environment.

SMTP_HOST is required: without it the server refuses to start, unless GATEHOUSE_DEV_INBOX=true
asks for the dev inbox (development only: refused with a live project or an https PUBLIC_URL,
and answering only on localhost). Behind reverse proxies, TRUST_PROXY gives their number (1) or
their addresses (10.0.0.0/8,127.0.0.1) so rate limits see client addresses.
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
  'member create': `Usage: gatehouse member create --project ID --org ORG_ID_OR_SLUG --email E [--name N] [--password P]

Creates an active member of an organization. With --password, the member can log in with that
password; it must satisfy the project's password policy.
`,
  'org update': `Usage: gatehouse org update --project ID --org ORG_ID_OR_SLUG [--mfa-policy OPTIONAL|REQUIRED_FOR_ALL]
       [--mfa-methods ALL_ALLOWED|RESTRICTED] [--allowed-mfa-method sms_otp|totp]…

Changes an organization's MFA policy. With --mfa-methods RESTRICTED, members may use only the
methods given by --allowed-mfa-method.
`,
  'member update': `Usage: gatehouse member update --project ID (--member ID | --org ORG_ID_OR_SLUG --email E)
       [--mfa-enrolled true|false] [--phone P] [--phone-verified true|false]
       [--default-mfa-method sms_otp|totp|none]

Changes a member's MFA settings. --phone takes any usual format (stored as E.164; "" removes
it) and is unverified unless --phone-verified true is given.
`,
  'session revoke': `Usage: gatehouse session revoke --project ID (--session ID | --session-token T | --member ID)

Ends one live session, by its member_session_id or its session token, or with --member every
session of that member together with its unfinished sign-ins (intermediate sessions). A revoked
session fails to refresh at once; a session JWT it already issued verifies offline until it
expires (five minutes at most), so backends that must see the revocation at once authenticate
the session with the management API.
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
  'org update': {
    ...help,
    project: { type: 'string' },
    org: { type: 'string' },
    'mfa-policy': { type: 'string' },
    'mfa-methods': { type: 'string' },
    'allowed-mfa-method': { type: 'string', multiple: true },
  },
  'member update': {
    ...help,
    project: { type: 'string' },
    member: { type: 'string' },
    org: { type: 'string' },
    email: { type: 'string' },
    'mfa-enrolled': { type: 'string' },
    phone: { type: 'string' },
    'phone-verified': { type: 'string' },
    'default-mfa-method': { type: 'string' },
  },
  'member create': {
    ...help,
    project: { type: 'string' },
    org: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    password: { type: 'string' },
  },
  'session revoke': {
    ...help,
    project: { type: 'string' },
    session: { type: 'string' },
    'session-token': { type: 'string' },
    member: { type: 'string' },
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

/** An optional option restricted to a few values (`undefined` when absent). */
function oneOf<T extends string>(
  values: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
}

/** An optional `true`/`false` option. */
function flag(values: Record<string, unknown>, name: string): boolean | undefined {
  const value = oneOf(values, name, ['true', 'false']);
  return value === undefined ? undefined : value === 'true';
}

/** An organization id, or a slug looked up in the project. */
async function organizationIdOf(admin: Admin, projectId: string, ref: string): Promise<string> {
  if (ref.startsWith('organization-')) return ref;
  const org = await admin.getOrganizationBySlug(projectId, ref);
  if (!org) throw new UsageError(`No organization with slug ${ref} in project ${projectId}`);
  return org.organization_id;
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
        if (typeof values.password === 'string') {
          const withPassword = await admin.setMemberPassword(projectId, member.member_id, {
            password: values.password,
          });
          io.stdout(`password_id: ${withPassword.member_password_id}\n`);
        }
        return 0;
      });
    }
    case 'org update': {
      const projectId = required(values, 'project');
      const orgRef = required(values, 'org');
      const allowed = stringList(values, 'allowed-mfa-method');
      const bad = allowed.find((m) => !(MFA_METHODS as readonly string[]).includes(m));
      if (bad)
        throw new UsageError(`--allowed-mfa-method must be one of ${MFA_METHODS.join(', ')}`);
      const patch = {
        mfa_policy: oneOf(values, 'mfa-policy', ['OPTIONAL', 'REQUIRED_FOR_ALL'] as const),
        mfa_methods: oneOf(values, 'mfa-methods', ['ALL_ALLOWED', 'RESTRICTED'] as const),
        ...(allowed.length > 0 ? { allowed_mfa_methods: allowed as MfaMethod[] } : {}),
      };
      return withRuntime(io, async ({ admin }) => {
        const orgId = await organizationIdOf(admin, projectId, orgRef);
        const org = await admin.updateOrganization(projectId, orgId, patch);
        io.stdout(
          `Organization updated.\norganization_id:     ${org.organization_id}\n` +
            `mfa_policy:          ${org.mfa_policy}\nmfa_methods:         ${org.mfa_methods}\n` +
            `allowed_mfa_methods: ${org.allowed_mfa_methods.join(', ')}\n`,
        );
        return 0;
      });
    }
    case 'member update': {
      const projectId = required(values, 'project');
      const memberRef = typeof values.member === 'string' ? values.member : undefined;
      if (!memberRef && (typeof values.org !== 'string' || typeof values.email !== 'string')) {
        throw new UsageError('--member, or --org and --email, is required');
      }
      const method = oneOf(values, 'default-mfa-method', ['sms_otp', 'totp', 'none'] as const);
      const patch = {
        mfa_enrolled: flag(values, 'mfa-enrolled'),
        mfa_phone_number: typeof values.phone === 'string' ? values.phone : undefined,
        mfa_phone_number_verified: flag(values, 'phone-verified'),
        default_mfa_method: method === 'none' ? ('' as const) : method,
      };
      return withRuntime(io, async ({ admin }) => {
        let memberId = memberRef;
        if (!memberId) {
          const orgId = await organizationIdOf(admin, projectId, required(values, 'org'));
          const found = await admin.getMemberByEmail(projectId, orgId, required(values, 'email'));
          if (!found)
            throw new UsageError(`No member ${String(values.email)} in that organization`);
          memberId = found.member_id;
        }
        const member = await admin.updateMember(projectId, memberId, patch);
        io.stdout(
          `Member updated.\nmember_id:                 ${member.member_id}\n` +
            `mfa_enrolled:              ${String(member.mfa_enrolled)}\n` +
            `mfa_phone_number:          ${member.mfa_phone_number}\n` +
            `mfa_phone_number_verified: ${String(member.mfa_phone_number_verified)}\n` +
            `default_mfa_method:        ${member.default_mfa_method || 'none'}\n`,
        );
        return 0;
      });
    }
    case 'session revoke': {
      const projectId = required(values, 'project');
      const target = {
        session_id: typeof values.session === 'string' ? values.session : undefined,
        session_token:
          typeof values['session-token'] === 'string' ? values['session-token'] : undefined,
        member_id: typeof values.member === 'string' ? values.member : undefined,
      };
      if (Object.values(target).filter((v) => v !== undefined).length !== 1) {
        throw new UsageError('exactly one of --session, --session-token and --member is required');
      }
      return withRuntime(io, async ({ admin }) => {
        const revoked = await admin.revokeSessions(projectId, target);
        io.stdout(
          `Sessions revoked.\nmember_id: ${revoked.member_id}\n` +
            `revoked:   ${revoked.revoked_session_ids.length}\n` +
            revoked.revoked_session_ids.map((id) => `  ${id}\n`).join(''),
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
