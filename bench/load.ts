/** The benchmark server in its own process, and bounded autocannon runs against it on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { threadPoolSize } from '@gatehouse/server';

const here = dirname(fileURLToPath(import.meta.url));

/** What the benchmark server prints once it is ready. */
export interface BenchTarget {
  url: string;
  publicToken: string;
  sessionToken: string;
  organizationId: string;
  email: string;
  password: string;
  /** Unused login-link tokens, one per member. */
  links: string[];
}

/**
 * Starts `session-server.ts` in a child process (the server gets a core of its own). `env` picks
 * the database (`DATABASE_URL`, `GATEHOUSE_SERVER_KEY`), the login links to make (`LINKS`) or an
 * unseeded second instance (`SEED=false`, whose target has only its `url`).
 */
export async function startBenchServer(
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; target: BenchTarget }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'session-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // The pool size a deployment should run with; argon2-rate.ts measures with as many threads.
    env: { ...process.env, UV_THREADPOOL_SIZE: String(threadPoolSize()), ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, target: JSON.parse(line) as BenchTarget };
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

const basic = (user: string, secret: string) =>
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

/** A bounded load of correct password sign-ins. */
export function passwordLoad(target: BenchTarget, seconds: number, connections: number) {
  return autocannon({
    url: `${target.url}/sdk/v1/b2b/passwords/authenticate`,
    method: 'POST',
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
    connections,
    duration: seconds,
  });
}
