/**
 * Child process of `session-compare.ts`: Better Auth with its organization plugin on a temporary
 * SQLite file (better-sqlite3, with Gatehouse's pragmas), served by Node's HTTP server on
 * 127.0.0.1. Signs a user up, creates an organization (which becomes the session's active one)
 * and prints the URL, the session cookie and the ids the load generator checks every answer for.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import { organization } from 'better-auth/plugins';

const dir = mkdtempSync(join(tmpdir(), 'better-auth-bench-'));
const sqlite = new Database(join(dir, 'peer.db'));
// The pragmas Gatehouse's SQLite store sets (packages/server/src/store/db.ts).
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('foreign_keys = ON');

const BASE_URL = 'http://127.0.0.1';
const auth = betterAuth({
  database: sqlite,
  baseURL: BASE_URL,
  secret: 'bench-secret-bench-secret-bench-secret-0123456789',
  emailAndPassword: { enabled: true },
  plugins: [organization()],
  // The load is one session over many connections: an in-memory limit would refuse it.
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
});

const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const handle = toNodeHandler(auth);
const server = createServer((request, response) => void handle(request, response));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
if (address === null || typeof address === 'string') throw new Error('no port');
const url = `http://127.0.0.1:${address.port}`;
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

/** Calls an endpoint of the running server; returns its JSON and the cookie it set, if any. */
async function post(path: string, body: unknown, cookie?: string) {
  const response = await fetch(`${url}/api/auth${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: BASE_URL,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  const setCookie = response.headers.getSetCookie().find((c) => c.includes('session_token='));
  return {
    json: (await response.json()) as Record<string, unknown>,
    cookie: setCookie?.split(';')[0],
  };
}

const signUp = await post('/sign-up/email', {
  email: 'load@bench.test',
  name: 'Load',
  password: 'correct horse battery staple 42!',
});
const cookie = signUp.cookie;
if (!cookie) throw new Error('sign-up set no session cookie');
const user = signUp.json.user as { id: string };
const org = await post('/organization/create', { name: 'Bench Corp', slug: 'bench' }, cookie);

process.stdout.write(
  JSON.stringify({
    url,
    cookie,
    userId: user.id,
    organizationId: (org.json as { id: string }).id,
  }) + '\n',
);
