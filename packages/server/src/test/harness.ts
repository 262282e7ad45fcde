/** Test harness: a real server on a temp database (SQLite, or PostgreSQL by TEST_DATABASE_URL) and a real port, seeded. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Member, Organization } from '@gatehouse/protocol';
import type { FastifyInstance } from 'fastify';
import { createServer } from '../http/app.js';
import type { ServerConfig } from '../config.js';
import type { Admin } from '../products/projects/admin.js';
import { openStore } from '../store/db.js';
import type { Database } from '../store/schema.js';
import type { Kysely } from 'kysely';
import pg from 'pg';

/** The seeded project's credentials. */
export interface SeededProject {
  project_id: string;
  public_token: string;
  secret: string;
  secret_id: string;
}

/** Options of one request. */
export interface RequestOptions {
  method?: string;
  /** JSON-encoded unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  contentType?: string | null;
  /** The secret half of `Authorization`: a session token; defaults to the public token (anonymous). */
  token?: string;
  /** The public token to send; defaults to the seeded project's. */
  publicToken?: string;
  /** A whole `Authorization` header, or null for none. */
  authorization?: string | null;
  /** `Origin` header; defaults to `http://localhost:3000`; null for none. */
  origin?: string | null;
  headers?: Record<string, string>;
}

/** A parsed response. */
export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary JSON; asserting on its shape is their job.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** A running server for one test file. */
export interface Harness {
  app: FastifyInstance;
  url: string;
  admin: Admin;
  dir: string;
  /** A second connection to the same database file, for assertions on stored state. */
  db: Kysely<Database>;
  project: SeededProject;
  org: Organization;
  member: Member;
  /** The test clock; `advance` moves it. */
  clock: { now: number; advance(ms: number): void };
  /** A request to any path of the server. */
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  /** A request to `/sdk/v1{path}`, POST by default. */
  sdk(path: string, options?: RequestOptions): Promise<TestResponse>;
  /** The token in the newest e-mail to `to`. */
  lastToken(to: string): Promise<string>;
  /** Signs `email` in to the seeded organization by magic link; returns result F's data. */
  login(email?: string): Promise<TestResponse['body']>;
  close(): Promise<void>;
}

/** Basic credentials as the SDK sends them. */
export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

/**
 * The database of one harness: a SQLite file in the temp folder, or, when `TEST_DATABASE_URL`
 * names a PostgreSQL server, a fresh schema there (dropped at the end), so the same suite runs
 * against both dialects.
 */
async function testDatabase(
  dir: string,
): Promise<{ url: string; serverKey?: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { url: `sqlite:${join(dir, 'gatehouse.db')}`, drop: async () => undefined };
  const schema = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    serverKey: randomBytes(32).toString('hex'),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/**
 * Starts a server on 127.0.0.1 with a port chosen by the OS.
 *
 * @example
 * const h = await startHarness();
 * const res = await h.sdk('/b2b/organizations/search', { body: { organization_slug: 'acme' } });
 */
export async function startHarness(options: { config?: ServerConfig } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const database = await testDatabase(dir);
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const app = await createServer({
    databaseUrl: database.url,
    ...(database.serverKey ? { serverKey: database.serverKey } : {}),
    now: () => clock.now,
    // Tests read SMS codes from the dev inbox over HTTP; suites that test SMTP delivery pass
    // their own SMTP settings and get no inbox unless they ask.
    devInbox: !options.config?.smtp,
    // Generous limits so suites can sign in often; rate-limit tests pass their own.
    rateLimits: {
      sendsPerEmailPerHour: 1000,
      sendsPerIpPerHour: 10_000,
      searchesPerIpPerMinute: 10_000,
    },
    ...options.config,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const inspector = openStore(database.url);
  const admin = app.gatehouse;
  const project = await admin.createProject({
    name: 'Acme Cloud',
    createOrganizationEnabled: true,
    redirectUrls: {
      login: ['http://localhost:3000/authenticate'],
      signup: ['http://localhost:3000/authenticate'],
      discovery: ['http://localhost:3000/discovery'],
    },
  });
  const org = await admin.createOrganization(project.project_id, {
    organization_name: 'Acme',
    organization_slug: 'acme',
    email_allowed_domains: ['acme.test'],
  });
  const member = await admin.createMember(project.project_id, org.organization_id, {
    email_address: 'ada@acme.test',
    name: 'Ada',
  });

  async function request(path: string, o: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...o.headers };
    const authorization =
      o.authorization === undefined
        ? basic(
            o.publicToken ?? project.public_token,
            o.token ?? o.publicToken ?? project.public_token,
          )
        : o.authorization;
    if (authorization !== null) headers.authorization = authorization;
    const origin = o.origin === undefined ? 'http://localhost:3000' : o.origin;
    if (origin !== null) headers.origin = origin;
    const contentType = o.contentType === undefined ? 'application/json' : o.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
    const method = o.method ?? (o.body !== undefined || o.rawBody !== undefined ? 'POST' : 'GET');
    const body = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (res.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  const harness: Harness = {
    app,
    url,
    admin,
    dir,
    db: inspector.db,
    project,
    org,
    member,
    clock,
    request,
    sdk: (path, o = {}) => request(`/sdk/v1${path}`, { method: 'POST', ...o }),
    async lastToken(to) {
      const message = (await admin.listOutbox({ limit: 50 })).find((m) => m.to === to);
      const link = message?.links[0];
      if (!link) throw new Error(`No e-mail to ${to}`);
      const token = new URL(link).searchParams.get('token');
      if (!token) throw new Error(`No token in ${link}`);
      return token;
    },
    async login(email = 'ada@acme.test') {
      const sent = await harness.sdk('/b2b/magic_links/email/login_or_signup', {
        body: { email_address: email, organization_id: org.organization_id },
      });
      if (sent.status !== 200) throw new Error(`send failed: ${sent.text}`);
      const res = await harness.sdk('/b2b/magic_links/authenticate', {
        body: { magic_links_token: await harness.lastToken(email), session_duration_minutes: 60 },
      });
      if (res.status !== 200) throw new Error(`authenticate failed: ${res.text}`);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-member-access
      return res.body.data;
    },
    async close() {
      await inspector.close();
      await app.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
