/**
 * Child process of the server benchmarks: starts Gatehouse on `DATABASE_URL` (a temporary SQLite
 * database when unset), gives a member a password, signs them in through the real magic-link
 * endpoints, sends `LINKS` more login links, and prints what the load generator needs. With
 * `SEED=false` it only starts (a second instance over a seeded database) and prints its URL. The
 * logger is on, as `gatehouse serve` runs it, its lines made and then discarded (stdout is the
 * benchmark's channel); `BENCH_LOG_REQUESTS=1` adds the request lines (`LOG_REQUESTS`). With
 * `BENCH_PROFILE=<dir>`, SIGUSR2 starts and stops a CPU profile written there (named after
 * `BENCH_PROFILE_NAME`, 'gatehouse' by default); with `BENCH_MEMORY_MS` and `--expose-gc` it prints
 * its memory after a full GC that often; with `SOAK_MEMBERS` it also seeds the soak's members
 * (`soak-seed.ts`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@gatehouse/server';
import { profileOnSignal } from './profile-on-signal.js';
import { seedSoak } from './soak-seed.js';

if (process.env.BENCH_PROFILE) {
  profileOnSignal(process.env.BENCH_PROFILE, process.env.BENCH_PROFILE_NAME ?? 'gatehouse');
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const app = await createServer({
  databaseUrl: process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`,
  ...(process.env.GATEHOUSE_SERVER_KEY ? { serverKey: process.env.GATEHOUSE_SERVER_KEY } : {}),
  logger: { write: () => undefined },
  logRequests: process.env.BENCH_LOG_REQUESTS === '1',
  devInbox: true,
  // The load signs one member in from one address over many connections at once.
  passwordThrottle: { freeAttempts: 1_000_000, attemptsPerEmail: 1_000_000 },
  rateLimits: {
    sendsPerEmailPerHour: 1_000_000,
    sendsPerIpPerHour: 1_000_000,
    passwordAttemptsPerIpPerHour: 1_000_000,
    // The soak signs its MFA members in with a TOTP code in every 30-s step it can.
    mfaAttemptsPerMemberPerHour: 1_000_000,
  },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
if (process.env.SEED === 'false') {
  process.stdout.write(JSON.stringify({ url: address }) + '\n');
} else {
  await seed();
}
// The soak's memory samples, after the ready line: heap and RSS just after a full GC
// (`--expose-gc`), one JSON line every BENCH_MEMORY_MS.
const gc = (globalThis as { gc?: () => void }).gc;
if (process.env.BENCH_MEMORY_MS && gc) {
  setInterval(() => {
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    process.stdout.write(JSON.stringify({ memory: { rss, heapUsed } }) + '\n');
  }, Number(process.env.BENCH_MEMORY_MS)).unref();
}

async function seed() {
  const admin = app.gatehouse;
  const project = await admin.createProject({
    name: 'bench',
    environment: 'test',
    redirectUrls: { login: ['http://localhost:3000/_app'], signup: ['http://localhost:3000/_app'] },
  });
  const org = await admin.createOrganization(project.project_id, {
    organization_name: 'Bench Corp',
    organization_slug: 'bench',
  });
  const email = 'load@bench.test';
  const password = 'correct horse battery staple 42!';
  const member = await admin.createMember(project.project_id, org.organization_id, {
    email_address: email,
  });
  await admin.setMemberPassword(project.project_id, member.member_id, { password });

  const auth = `Basic ${Buffer.from(`${project.public_token}:${project.public_token}`).toString('base64')}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${address}/sdk/v1${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };

  await post('/b2b/magic_links/email/login_or_signup', {
    email_address: email,
    organization_id: org.organization_id,
  });
  const [message] = await admin.listOutbox({ limit: 1 });
  const token = new URL(message!.links[0]!).searchParams.get('token');
  const result = await post('/b2b/magic_links/authenticate', {
    magic_links_token: token,
    session_duration_minutes: 60 * 24,
  });

  // Login links for the magic-link benchmark, one per member, each redeemed once by the load.
  const links: string[] = [];
  const count = Number(process.env.LINKS ?? 0);
  for (let i = 0; i < count; i += 100) {
    const batch = Math.min(100, count - i);
    await Promise.all(
      Array.from({ length: batch }, async (_, j) => {
        const linkEmail = `link-${i + j}@bench.test`;
        await admin.createMember(project.project_id, org.organization_id, {
          email_address: linkEmail,
        });
        await post('/b2b/magic_links/email/login_or_signup', {
          email_address: linkEmail,
          organization_id: org.organization_id,
        });
      }),
    );
    // The newest messages are this batch's links (the outbox lists at most 1,000 at a time).
    for (const message of await admin.listOutbox({ limit: batch })) {
      links.push(new URL(message.links[0]!).searchParams.get('token')!);
    }
  }

  const soak = process.env.SOAK_MEMBERS
    ? await seedSoak(admin, project.project_id, org.organization_id, password, post)
    : undefined;

  process.stdout.write(
    JSON.stringify({
      url: address,
      publicToken: project.public_token,
      sessionToken: result.session_token,
      memberId: member.member_id,
      organizationId: org.organization_id,
      email,
      password,
      links,
      soak,
    }) + '\n',
  );
}
