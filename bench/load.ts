/** The benchmark server in its own process, and bounded autocannon runs against it on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { threadPoolSize } from '@gatehouse/server';
import type { SoakMembers } from './soak-seed.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The packages a benchmark server loads, whose build must be as new as their sources. */
const SERVER_PACKAGES = ['server', 'protocol'];

/** The newest modification time of the files under `dir` that are built (not tests), in ms. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Node's flags that choose the Gatehouse a benchmark runs: its build (`dist/`), which is what
 * `gatehouse serve` runs, unless `BENCH_SOURCE=1`, which runs the TypeScript sources through tsx
 * (no build needed, but not what ships: tsx keeps function names with a call per closure made).
 * Throws when a build is missing or older than its sources, so that no figure is an old build's.
 *
 * @example
 * startBenchServer({}, { cpus: '0', nodeFlags: serverFlags() });
 */
export function serverFlags(): string[] {
  if (process.env.BENCH_SOURCE === '1') return ['--conditions=source'];
  for (const name of SERVER_PACKAGES) {
    const root = resolve(here, '..', 'packages', name);
    let built = 0;
    try {
      built = statSync(join(root, 'dist', 'index.js')).mtimeMs;
    } catch {
      // No build: said below.
    }
    if (built === 0 || newestUnder(join(root, 'src')) > built) {
      throw new Error(
        `The build of packages/${name} is missing or older than its sources: run \`npm run build\` ` +
          '(or BENCH_SOURCE=1 to run the sources).',
      );
    }
  }
  return [];
}

/** What the benchmark server prints once it is ready. */
export interface BenchTarget {
  url: string;
  publicToken: string;
  sessionToken: string;
  memberId: string;
  organizationId: string;
  email: string;
  password: string;
  /** Unused login-link tokens, one per member. */
  links: string[];
  /** The soak's members, when started with `SOAK_MEMBERS`. */
  soak?: SoakMembers;
}

/**
 * Starts `session-server.ts` in a child process (the server gets a core of its own). `env` picks
 * the database (`DATABASE_URL`, `GATEHOUSE_SERVER_KEY`), the login links to make (`LINKS`) or an
 * unseeded second instance (`SEED=false`, whose target has only its `url`).
 */
export async function startBenchServer(
  env: Record<string, string> = {},
  options: ChildOptions = {},
): Promise<{ child: ChildProcess; target: BenchTarget }> {
  // The pool size a deployment should run with; argon2-rate.ts measures with as many threads.
  const poolEnv = { UV_THREADPOOL_SIZE: String(threadPoolSize()), ...env };
  const { child, line } = await startChild(options.file ?? 'session-server.ts', poolEnv, options);
  return { child, target: JSON.parse(line) as BenchTarget };
}

/** How a benchmark child process runs. */
export interface ChildOptions {
  /** The file to run, relative to bench/ or absolute (another checkout's `session-server.ts`). */
  file?: string;
  /** Pins the process to these cores (`taskset -c`), e.g. '0'. */
  cpus?: string;
  /** Node's own flags, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
}

/**
 * Starts one of the bench's TypeScript files in a child process and waits for the first line it
 * prints (what it is ready with). Pinned with `taskset`, which replaces itself with Node, so the
 * child's pid is Node's.
 */
export async function startChild(
  file: string,
  env: Record<string, string>,
  { cpus, nodeFlags = [] }: ChildOptions = {},
): Promise<{ child: ChildProcess; line: string }> {
  const node = [...nodeFlags, '--import', 'tsx', resolve(here, file)];
  const [command, args] = cpus
    ? ['taskset', ['-c', cpus, process.execPath, ...node]]
    : [process.execPath, node];
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { child, line };
}

/** Redeems each login link once (`amount` = the links), as fast as `connections` allow. */
export function linkLoad(target: BenchTarget, links: string[], connections: number) {
  let next = 0;
  return autocannon({
    url: `${target.url}/sdk/v1/b2b/magic_links/authenticate`,
    method: 'POST',
    headers: {
      authorization: basic(target.publicToken, target.publicToken),
      'content-type': 'application/json',
    },
    connections,
    amount: links.length,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            magic_links_token: links[next++ % links.length],
            session_duration_minutes: 60,
          }),
        }),
      },
    ],
  });
}

/** An `Authorization: Basic` header value. */
export const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** A bounded load of `POST /sdk/v1/b2b/sessions/authenticate` with a live session. */
export function sessionLoad(target: BenchTarget, seconds: number, connections: number) {
  return autocannon({
    url: `${target.url}/sdk/v1/b2b/sessions/authenticate`,
    method: 'POST',
    headers: {
      authorization: basic(target.publicToken, target.sessionToken),
      'content-type': 'application/json',
    },
    body: '{}',
    connections,
    duration: seconds,
  });
}

/** One correct password sign-in of the target's member: its URL, method, headers and body. */
export function passwordSignIn(target: BenchTarget) {
  return {
    url: `${target.url}/sdk/v1/b2b/passwords/authenticate`,
    method: 'POST' as const,
    headers: {
      authorization: basic(target.publicToken, target.publicToken),
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      organization_id: target.organizationId,
      email_address: target.email,
      password: target.password,
      session_duration_minutes: 60,
    }),
  };
}

/** A bounded load of correct password sign-ins. */
export function passwordLoad(target: BenchTarget, seconds: number, connections: number) {
  return autocannon({ ...passwordSignIn(target), connections, duration: seconds });
}
