// Crash safety: a real `gatehouse serve` process takes sign-ups, sign-ins and password changes
// under load and is killed with SIGKILL mid-flight. After a restart, everything it acknowledged
// is there, SQLite's integrity check passes, and no single-use token works twice. Runs on SQLite
// and, in npm test, on PostgreSQL.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { openRuntime } from './runtime.js';
import { openStore, type Store } from './store/db.js';
import { testDatabase } from './test/database.js';
import { basic } from './test/harness.js';
import { serveProcess, type ServeProcess } from './test/serve-process.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKERS = 6;
const PASSWORD = 'Quartz-Lantern-Orbit-42';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-'));
const serverKey = randomBytes(32).toString('hex');
let database: Awaited<ReturnType<typeof testDatabase>>;
let inspector: Store;
let seeded: {
  publicToken: string;
  projectId: string;
  secret: string;
  orgId: string;
  memberId: string;
};
const processes: ServeProcess[] = [];

beforeAll(async () => {
  database = await testDatabase(dir);
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const runtime = await openRuntime(
    resolveConfig({ databaseUrl: database.url, serverKey, devInbox: true }),
    quiet,
  );
  try {
    const project = await runtime.admin.createProject({
      name: 'Crash',
      redirectUrls: { login: ['http://localhost:3000/in'], signup: ['http://localhost:3000/in'] },
    });
    const org = await runtime.admin.createOrganization(project.project_id, {
      organization_name: 'Crash',
      organization_slug: 'crash',
      email_allowed_domains: ['crash.test'],
    });
    const member = await runtime.admin.createMember(project.project_id, org.organization_id, {
      email_address: 'pat@crash.test',
    });
    await runtime.admin.setMemberPassword(project.project_id, member.member_id, {
      password: PASSWORD,
    });
    seeded = {
      publicToken: project.public_token,
      projectId: project.project_id,
      secret: project.secret,
      orgId: org.organization_id,
      memberId: member.member_id,
    };
  } finally {
    await runtime.close();
  }
  inspector = openStore(database.url);
});

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await inspector?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const start = async () => {
  const server = await serveProcess({
    DATABASE_URL: database.url,
    GATEHOUSE_SERVER_KEY: serverKey,
    GATEHOUSE_DEV_INBOX: 'true',
    // Each simulated client speaks from its own address, so per-IP send limits do not bind.
    TRUST_PROXY: '1',
  });
  processes.push(server);
  return server;
};

let clients = 0;
/** A JSON call as a browser (public token) or a backend (secret key) makes it. */
async function call(
  base: string,
  method: string,
  path: string,
  body: unknown,
  as: 'public' | 'secret' = 'public',
): Promise<{ status: number; body: { data?: Record<string, unknown> } }> {
  const authorization =
    as === 'public'
      ? basic(seeded.publicToken, seeded.publicToken)
      : basic(seeded.projectId, seeded.secret);
  clients += 1;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization,
      'content-type': 'application/json',
      'x-forwarded-for': `10.1.${Math.floor(clients / 250) % 250}.${clients % 250}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as never };
}

/** The token of the newest login link e-mailed to `to`, read from the dev outbox. */
async function linkToken(to: string): Promise<string | null> {
  const row = await inspector.db
    .selectFrom('outbox')
    .select('links')
    .where('recipient', '=', to)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const link = row ? (JSON.parse(row.links) as string[])[0] : undefined;
  return link ? new URL(link).searchParams.get('token') : null;
}

interface Acknowledged {
  sessions: string[];
  redeemed: string[];
  /** Links sent whose redemption was never answered (in flight at the kill, or not tried). */
  unredeemed: string[];
  /** The passwords the server acknowledged, in order, and the one in flight at the kill. */
  passwords: string[];
  passwordInFlight: string | null;
}

/** Runs sign-ups and password changes on `base` until `stop` says so; records what was acked. */
async function load(base: string, stop: () => boolean, acked: Acknowledged): Promise<void> {
  const signUps = async (worker: number) => {
    for (let n = 0; !stop(); n += 1) {
      const email = `user-${worker}-${n}@crash.test`;
      try {
        const sent = await call(base, 'POST', '/sdk/v1/b2b/magic_links/email/login_or_signup', {
          email_address: email,
          organization_id: seeded.orgId,
        });
        if (sent.status !== 200) continue;
        const token = await linkToken(email);
        if (!token) continue;
        acked.unredeemed.push(token);
        const done = await call(base, 'POST', '/sdk/v1/b2b/magic_links/authenticate', {
          magic_links_token: token,
          session_duration_minutes: 60,
        });
        if (done.status === 200) {
          acked.unredeemed.splice(acked.unredeemed.indexOf(token), 1);
          acked.redeemed.push(token);
          acked.sessions.push(String(done.body.data?.session_token));
        }
      } catch {
        return; // The server is gone.
      }
    }
  };
  const passwordChanges = async () => {
    for (let n = 0; !stop(); n += 1) {
      const password = `${PASSWORD}-${n}`;
      acked.passwordInFlight = password;
      try {
        const res = await call(
          base,
          'PUT',
          `/v1/b2b/organizations/${seeded.orgId}/members/${seeded.memberId}/password`,
          { password },
          'secret',
        );
        if (res.status === 200) acked.passwords.push(password);
        acked.passwordInFlight = null;
      } catch {
        return;
      }
    }
  };
  await Promise.all([
    ...Array.from({ length: WORKERS }, (_, worker) => signUps(worker)),
    passwordChanges(),
  ]);
}

describe('a server killed with SIGKILL under load', () => {
  it('loses nothing it acknowledged and lets no single-use token work twice', async () => {
    const first = await start();
    const acked: Acknowledged = {
      sessions: [],
      redeemed: [],
      unredeemed: [],
      passwords: [],
      passwordInFlight: null,
    };
    let killed = false;
    const running = load(first.url, () => killed, acked);
    // Kill in the middle of the traffic, once enough has been acknowledged.
    while (acked.sessions.length < 30 || acked.passwords.length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill('SIGKILL');
    killed = true;
    expect(await first.exited).toBe('SIGKILL');
    await running;

    if (database.url.startsWith('sqlite:')) {
      const file = new Database(database.url.slice('sqlite:'.length));
      try {
        expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        file.close();
      }
    }

    const second = await start();
    for (const session_token of acked.sessions) {
      const res = await call(
        second.url,
        'POST',
        '/v1/b2b/sessions/authenticate',
        { session_token },
        'secret',
      );
      expect(res.status, `session ${session_token}`).toBe(200);
    }
    for (const token of acked.redeemed) {
      const again = await call(second.url, 'POST', '/sdk/v1/b2b/magic_links/authenticate', {
        magic_links_token: token,
        session_duration_minutes: 60,
      });
      expect(again.status).toBe(404);
    }
    // A link whose redemption was cut short works at most once, however it is raced now.
    for (const token of acked.unredeemed) {
      const tries = await Promise.all(
        [0, 1, 2].map(() =>
          call(second.url, 'POST', '/sdk/v1/b2b/magic_links/authenticate', {
            magic_links_token: token,
            session_duration_minutes: 60,
          }),
        ),
      );
      expect(tries.filter((t) => t.status === 200).length).toBeLessThanOrEqual(1);
    }
    // The newest acknowledged password, or the one in flight at the kill, signs in.
    const candidates = [acked.passwordInFlight, acked.passwords.at(-1)].filter(
      (p): p is string => typeof p === 'string',
    );
    const statuses = await Promise.all(
      candidates.map(
        async (password) =>
          (
            await call(second.url, 'POST', '/sdk/v1/b2b/passwords/authenticate', {
              organization_id: seeded.orgId,
              email_address: 'pat@crash.test',
              password,
              session_duration_minutes: 60,
            })
          ).status,
      ),
    );
    expect(statuses).toContain(200);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
